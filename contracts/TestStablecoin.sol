// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestStablecoin
/// @notice A 6-decimals test stablecoin with an open faucet. For local simulation only.
contract TestStablecoin is ERC20 {
    constructor() ERC20("Test USD", "TUSD") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Open faucet: anyone may mint any amount to anyone.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
