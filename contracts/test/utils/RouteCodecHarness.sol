// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {RouteCodec} from "../../src/libraries/RouteCodec.sol";

/// @notice Exposes the route validation for fuzzing.
contract RouteCodecHarness {
    function validate(bytes calldata route, uint256 amountIn, address tokenOut) external pure {
        RouteCodec.validate(route, amountIn, tokenOut);
    }
}
