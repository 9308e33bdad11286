// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Collection} from "./Collection.sol";

/// @title CollectionFactory
/// @notice Deploys collections; anyone may create one. A collection's metadata (compact JSON: its
/// description, genre, image, slug, website, …) travels in the creating transaction and is emitted
/// in CollectionCreated, so an indexer reads the whole collection from the chain's logs.
/// A collection may also be announced: the Collection contract's own code at an address the factory did not
/// choose (a chain that places code, as a local fork does for a live collection's address), set up by its own
/// constructor there; its owner announces it once, and the factory emits CollectionCreated for it as for its own.
contract CollectionFactory {
    /// @dev The Collection contract's code hash: what an announced collection must run.
    bytes32 private immutable COLLECTION_CODE = keccak256(type(Collection).runtimeCode);

    /// @dev The collections CollectionCreated has named (deployed here, or announced), each once.
    mapping(address => bool) public known;

    error NotACollection(address collection);
    error NotCollectionOwner(address collection, address account);
    error AlreadyKnown(address collection);

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

    /// @notice Announces a Collection the factory did not deploy; what it says of itself (name, uri, owner) is read
    /// from it, and only its owner may announce it.
    function announceCollection(address collection, bytes calldata metadata) external {
        if (collection.codehash != COLLECTION_CODE) revert NotACollection(collection);
        if (known[collection]) revert AlreadyKnown(collection);
        Collection announced = Collection(collection);
        address owner = announced.owner();
        if (msg.sender != owner) revert NotCollectionOwner(collection, msg.sender);
        known[collection] = true;
        emit CollectionCreated(collection, owner, announced.name(), announced.baseUri(), metadata);
    }

    function _create(
        string calldata name,
        string calldata uri,
        address owner,
        address[] calldata minters,
        bytes memory metadata
    ) private returns (address collection) {
        collection = address(new Collection(name, uri, owner, minters));
        known[collection] = true;
        emit CollectionCreated(collection, owner, name, uri, metadata);
    }
}
