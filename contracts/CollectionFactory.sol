// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Collection} from "./Collection.sol";

/// @title CollectionFactory
/// @notice Deploys collections; anyone may create one.
contract CollectionFactory {
    event CollectionCreated(address indexed collection, address indexed owner, string name, string uri);

    function createCollection(
        string calldata name,
        string calldata uri,
        address owner,
        address[] calldata minters
    ) external returns (address collection) {
        collection = address(new Collection(name, uri, owner, minters));
        emit CollectionCreated(collection, owner, name, uri);
    }
}
