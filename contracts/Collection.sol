// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC1155Supply} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Supply.sol";
import {ERC1155Burnable} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Burnable.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title Collection
/// @notice One NFT collection of the simulated service: an ERC-1155 whose token ids are
/// items. Stackable items (addItem) have a max supply; non-stackable items (addItems) are
/// one-of-a-kind ids with max supply 1. Royalties are ERC-2981 in per mille (1000 = 100%),
/// capped below 300 (30%), paid to the item's creator.
/// Items may be described: the item's metadata (compact JSON, what the simulator's API answers about
/// it) travels in the transaction that creates it and is emitted once in ItemDescribed, so an
/// indexer reads the whole item from the chain's logs; nothing of it is stored.
/// @dev MINTER_ROLE is the "developer wallet authorization": holders may create items and
/// mint more supply. The owner holds DEFAULT_ADMIN_ROLE and grants / revokes MINTER_ROLE
/// with the standard AccessControl grantRole / revokeRole.
contract Collection is ERC1155, ERC1155Supply, ERC1155Burnable, ERC2981, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @dev Royalties of this value (per mille) or more are refused.
    uint96 private constant ROYALTY_LIMIT = 300;

    string public name;
    address public owner;
    string public baseUri;

    /// @notice Number of token ids created so far; ids start at 1, the next id is itemCount + 1.
    uint256 public itemCount;
    mapping(uint256 => uint256) public maxSupply;
    mapping(uint256 => address) public creator;

    event ItemCreated(
        uint256 indexed tokenId,
        address indexed creator,
        uint256 maxSupply,
        uint256 initialSupply,
        uint96 royaltyPerMille
    );

    /// @notice The item's description, emitted once by the transaction that created its token ids
    /// (firstTokenId .. firstTokenId + count - 1); `stackable` tells addItem (one id) from addItems.
    event ItemDescribed(uint256 indexed firstTokenId, uint256 count, bool stackable, bytes metadata);

    error RoyaltyTooHigh(uint96 royaltyPerMille);
    error SupplyAboveMax(uint256 tokenId, uint256 requested, uint256 maxSupply);
    error InvalidAmount();
    error NotMinterOrCreator(uint256 tokenId, address account);
    error UnknownToken(uint256 tokenId);

    constructor(string memory name_, string memory baseUri_, address owner_, address[] memory minters)
        ERC1155("")
    {
        name = name_;
        baseUri = baseUri_;
        owner = owner_;
        _grantRole(DEFAULT_ADMIN_ROLE, owner_);
        _grantRole(MINTER_ROLE, owner_);
        for (uint256 i = 0; i < minters.length; i++) {
            _grantRole(MINTER_ROLE, minters[i]);
        }
    }

    /// @notice Creates one stackable item (a new token id) and mints its initial supply to `to`.
    function addItem(address to, uint256 initialSupply, uint256 maxSupply_, uint96 royaltyPerMille)
        external
        onlyRole(MINTER_ROLE)
        returns (uint256 tokenId)
    {
        tokenId = _addItem(to, initialSupply, maxSupply_, royaltyPerMille);
    }

    /// @notice addItem, with the item's metadata emitted in ItemDescribed.
    function addItem(
        address to,
        uint256 initialSupply,
        uint256 maxSupply_,
        uint96 royaltyPerMille,
        bytes calldata metadata
    ) external onlyRole(MINTER_ROLE) returns (uint256 tokenId) {
        tokenId = _addItem(to, initialSupply, maxSupply_, royaltyPerMille);
        emit ItemDescribed(tokenId, 1, true, metadata);
    }

    /// @notice Creates `count` non-stackable items (ids firstTokenId .. firstTokenId + count - 1),
    /// each with max supply 1, and mints one of each to `to` in a single batch.
    function addItems(address to, uint256 count, uint96 royaltyPerMille)
        external
        onlyRole(MINTER_ROLE)
        returns (uint256 firstTokenId)
    {
        firstTokenId = _addItems(to, count, royaltyPerMille);
    }

    /// @notice addItems, with the item's metadata emitted (once, for all its ids) in ItemDescribed.
    function addItems(address to, uint256 count, uint96 royaltyPerMille, bytes calldata metadata)
        external
        onlyRole(MINTER_ROLE)
        returns (uint256 firstTokenId)
    {
        firstTokenId = _addItems(to, count, royaltyPerMille);
        emit ItemDescribed(firstTokenId, count, false, metadata);
    }

    /// @notice Mints more supply of an existing item; allowed for minters and the item's creator.
    function mint(address to, uint256 tokenId, uint256 amount) external {
        if (amount == 0) revert InvalidAmount();
        if (tokenId == 0 || tokenId > itemCount) revert UnknownToken(tokenId);
        if (!hasRole(MINTER_ROLE, msg.sender) && creator[tokenId] != msg.sender) {
            revert NotMinterOrCreator(tokenId, msg.sender);
        }
        uint256 requested = totalSupply(tokenId) + amount;
        if (requested > maxSupply[tokenId]) {
            revert SupplyAboveMax(tokenId, requested, maxSupply[tokenId]);
        }
        _mint(to, tokenId, amount, "");
    }

    function uri(uint256 id) public view override returns (string memory) {
        return string.concat(baseUri, "/", Strings.toString(id));
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC1155, ERC2981, AccessControl)
        returns (bool)
    {
        return super.supportsInterface(interfaceId);
    }

    function _addItem(address to, uint256 initialSupply, uint256 maxSupply_, uint96 royaltyPerMille)
        private
        returns (uint256 tokenId)
    {
        tokenId = itemCount + 1;
        if (maxSupply_ == 0 || initialSupply > maxSupply_) {
            revert SupplyAboveMax(tokenId, initialSupply, maxSupply_);
        }
        _createItem(tokenId, maxSupply_, initialSupply, royaltyPerMille);
        itemCount = tokenId;
        if (initialSupply > 0) {
            _mint(to, tokenId, initialSupply, "");
        }
    }

    function _addItems(address to, uint256 count, uint96 royaltyPerMille) private returns (uint256 firstTokenId) {
        if (count == 0) revert InvalidAmount();
        firstTokenId = itemCount + 1;
        uint256[] memory ids = new uint256[](count);
        uint256[] memory values = new uint256[](count);
        for (uint256 i = 0; i < count; i++) {
            uint256 id = firstTokenId + i;
            _createItem(id, 1, 1, royaltyPerMille);
            ids[i] = id;
            values[i] = 1;
        }
        itemCount = firstTokenId + count - 1;
        _mintBatch(to, ids, values, "");
    }

    function _createItem(uint256 tokenId, uint256 maxSupply_, uint256 initialSupply, uint96 royaltyPerMille)
        private
    {
        if (royaltyPerMille >= ROYALTY_LIMIT) revert RoyaltyTooHigh(royaltyPerMille);
        maxSupply[tokenId] = maxSupply_;
        creator[tokenId] = msg.sender;
        // Royalty 0: no token royalty is stored, royaltyInfo returns (address(0), 0).
        if (royaltyPerMille > 0) {
            _setTokenRoyalty(tokenId, msg.sender, royaltyPerMille);
        }
        emit ItemCreated(tokenId, msg.sender, maxSupply_, initialSupply, royaltyPerMille);
    }

    function _feeDenominator() internal pure override returns (uint96) {
        return 1000;
    }

    function _update(address from, address to, uint256[] memory ids, uint256[] memory values)
        internal
        override(ERC1155, ERC1155Supply)
    {
        super._update(from, to, ids, values);
    }
}
