// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {ERC165Checker} from "@openzeppelin/contracts/utils/introspection/ERC165Checker.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title Marketplace
/// @notice Escrow marketplace for ERC-1155 items. Listed items are held by this contract
/// until they are bought or returned to the seller.
/// @dev `price` is per unit, in the smallest unit of `currency`; `currency == address(0)` is
/// the chain's native coin, anything else an ERC-20. A listing is active while its amount is
/// above 0; it closes when delisted or sold out. removeFromListing must leave at least one
/// unit listed (amount < remaining); use delist to take everything back.
contract Marketplace is ERC1155Holder, ReentrancyGuard {
    using SafeERC20 for IERC20;

    struct Listing {
        address seller;
        address collection;
        uint256 tokenId;
        uint256 amount;
        uint256 price;
        address currency;
    }

    mapping(uint256 => Listing) public listings;
    uint256 public listingCount;

    event ItemListed(
        uint256 indexed listingId,
        address indexed seller,
        address indexed collection,
        uint256 tokenId,
        uint256 amount,
        uint256 price,
        address currency
    );
    event ItemDelisted(
        uint256 indexed listingId,
        address indexed seller,
        address indexed collection,
        uint256 tokenId,
        uint256 amount,
        uint256 price,
        address currency
    );
    event ItemPriceUpdated(
        uint256 indexed listingId,
        address indexed seller,
        address indexed collection,
        uint256 tokenId,
        uint256 amount,
        uint256 price,
        address currency
    );
    event ItemAdded(
        uint256 indexed listingId,
        address indexed seller,
        address indexed collection,
        uint256 tokenId,
        uint256 amount,
        uint256 price,
        address currency
    );
    event ItemRemoved(
        uint256 indexed listingId,
        address indexed seller,
        address indexed collection,
        uint256 tokenId,
        uint256 amount,
        uint256 price,
        address currency
    );
    event Swapped(
        uint256 indexed listingId,
        address indexed buyer,
        address indexed seller,
        address collection,
        uint256 tokenId,
        uint256 amount,
        uint256 price,
        address currency
    );

    error NotSeller(uint256 listingId, address account);
    error ListingNotActive(uint256 listingId);
    error WrongPayment(uint256 expected, uint256 sent);
    error InvalidAmount();
    error InvalidPrice();
    error PaymentFailed(address to);

    /// @notice Lists `amount` of `tokenId`, moving them into escrow. The seller must have
    /// called setApprovalForAll(marketplace, true) on the collection.
    function list(address collection, uint256 tokenId, uint256 amount, uint256 price, address currency)
        external
        nonReentrant
        returns (uint256 listingId)
    {
        if (amount == 0) revert InvalidAmount();
        if (price == 0) revert InvalidPrice();
        listingId = ++listingCount;
        listings[listingId] = Listing(msg.sender, collection, tokenId, amount, price, currency);
        IERC1155(collection).safeTransferFrom(msg.sender, address(this), tokenId, amount, "");
        emit ItemListed(listingId, msg.sender, collection, tokenId, amount, price, currency);
    }

    /// @notice Closes the listing and returns the whole remaining amount to the seller.
    function delist(uint256 listingId) external nonReentrant {
        Listing storage l = _sellerListing(listingId);
        uint256 returned = l.amount;
        l.amount = 0;
        IERC1155(l.collection).safeTransferFrom(address(this), l.seller, l.tokenId, returned, "");
        emit ItemDelisted(listingId, l.seller, l.collection, l.tokenId, returned, l.price, l.currency);
    }

    /// @notice Sets a new per-unit price.
    function updatePrice(uint256 listingId, uint256 price) external {
        if (price == 0) revert InvalidPrice();
        Listing storage l = _sellerListing(listingId);
        l.price = price;
        emit ItemPriceUpdated(listingId, l.seller, l.collection, l.tokenId, l.amount, price, l.currency);
    }

    /// @notice Moves `amount` more units into escrow for this listing.
    function addToListing(uint256 listingId, uint256 amount) external nonReentrant {
        if (amount == 0) revert InvalidAmount();
        Listing storage l = _sellerListing(listingId);
        l.amount += amount;
        IERC1155(l.collection).safeTransferFrom(l.seller, address(this), l.tokenId, amount, "");
        emit ItemAdded(listingId, l.seller, l.collection, l.tokenId, amount, l.price, l.currency);
    }

    /// @notice Returns `amount` units to the seller; at least one unit must stay listed
    /// (amount < remaining), otherwise InvalidAmount — taking everything back is `delist`.
    function removeFromListing(uint256 listingId, uint256 amount) external nonReentrant {
        Listing storage l = _sellerListing(listingId);
        if (amount == 0 || amount >= l.amount) revert InvalidAmount();
        l.amount -= amount;
        IERC1155(l.collection).safeTransferFrom(address(this), l.seller, l.tokenId, amount, "");
        emit ItemRemoved(listingId, l.seller, l.collection, l.tokenId, amount, l.price, l.currency);
    }

    /// @notice Buys `amount` units (1 .. remaining) at the listing's per-unit price. Native
    /// listings take exactly price * amount as msg.value; ERC-20 listings take no msg.value
    /// and pull the tokens from the buyer (approve the marketplace first). The ERC-2981
    /// royalty, if any, goes to its receiver and the rest to the seller.
    function buy(uint256 listingId, uint256 amount) external payable nonReentrant {
        Listing storage l = listings[listingId];
        if (l.amount == 0) revert ListingNotActive(listingId);
        if (amount == 0 || amount > l.amount) revert InvalidAmount();

        address seller = l.seller;
        address collection = l.collection;
        uint256 tokenId = l.tokenId;
        uint256 price = l.price;
        address currency = l.currency;
        uint256 total = price * amount;

        if (currency == address(0)) {
            if (msg.value != total) revert WrongPayment(total, msg.value);
        } else if (msg.value != 0) {
            revert WrongPayment(0, msg.value);
        }

        l.amount -= amount;

        (address royaltyReceiver, uint256 royalty) = _royalty(collection, tokenId, total);
        if (royalty > 0) _pay(currency, royaltyReceiver, royalty);
        if (total > royalty) _pay(currency, seller, total - royalty);

        IERC1155(collection).safeTransferFrom(address(this), msg.sender, tokenId, amount, "");
        emit Swapped(listingId, msg.sender, seller, collection, tokenId, amount, price, currency);
    }

    function _sellerListing(uint256 listingId) private view returns (Listing storage l) {
        l = listings[listingId];
        if (l.amount == 0) revert ListingNotActive(listingId);
        if (l.seller != msg.sender) revert NotSeller(listingId, msg.sender);
    }

    function _royalty(address collection, uint256 tokenId, uint256 total)
        private
        view
        returns (address receiver, uint256 royalty)
    {
        if (!ERC165Checker.supportsInterface(collection, type(IERC2981).interfaceId)) return (address(0), 0);
        try IERC2981(collection).royaltyInfo(tokenId, total) returns (address r, uint256 a) {
            if (r == address(0) || a == 0) return (address(0), 0);
            return (r, a > total ? total : a);
        } catch {
            return (address(0), 0);
        }
    }

    /// @dev Pays `value` of `currency` from the buyer (msg.sender) to `to`. Native coin comes
    /// out of msg.value held by this contract; ERC-20 is pulled straight from the buyer.
    function _pay(address currency, address to, uint256 value) private {
        if (currency == address(0)) {
            (bool ok,) = payable(to).call{value: value}("");
            if (!ok) revert PaymentFailed(to);
        } else {
            IERC20(currency).safeTransferFrom(msg.sender, to, value);
        }
    }
}
