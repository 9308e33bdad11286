// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {Marketplace} from "../Marketplace.sol";

/// @notice Test-only seller contract that refuses native coin, to check failed payouts revert.
contract RejectingSeller is ERC1155Holder {
    function listOn(Marketplace market, address collection, uint256 tokenId, uint256 amount, uint256 price)
        external
        returns (uint256)
    {
        IERC1155(collection).setApprovalForAll(address(market), true);
        return market.list(collection, tokenId, amount, price, address(0));
    }
}
