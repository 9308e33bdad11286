// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Collection} from "./Collection.sol";

/// @title CollectionFactory
/// @notice Deploys collections; anyone may create one. A collection's metadata (compact JSON: its
/// description, genre, image, slug, website, …) travels in the creating transaction and is emitted
/// in CollectionCreated, so an indexer reads the whole collection from the chain's logs.
contract CollectionFactory {
    event CollectionCreated(
        address indexed collection,
        address indexed owner,
        string name,
        string uri,
        bytes metadata
    );

    /// @notice A collection without metadata (its name, uri and owner are all it says of itself).
    function createCollection(
        string calldata name,
        string calldata uri,
        address owner,
        address[] calldata minters
    ) external returns (address collection) {
        collection = _create(name, uri, owner, minters, "");
    }

    function createCollection(
        string calldata name,
        string calldata uri,
        address owner,
        address[] calldata minters,
        bytes calldata metadata
    ) external returns (address collection) {
        collection = _create(name, uri, owner, minters, metadata);
    }

    function _create(
        string calldata name,
        string calldata uri,
        address owner,
        address[] calldata minters,
        bytes memory metadata
    ) private returns (address collection) {
        collection = address(new Collection(name, uri, owner, minters));
        emit CollectionCreated(collection, owner, name, uri, metadata);
    }
}
