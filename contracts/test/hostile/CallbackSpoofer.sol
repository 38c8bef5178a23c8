// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice A fake pool: a contract that calls the executor's swap callbacks directly, asking to be paid.
contract CallbackSpoofer {
    function spoofV3(address executor, int256 amount0Delta, int256 amount1Delta) external returns (bool ok, bytes memory err) {
        (ok, err) = executor.call(
            abi.encodeWithSignature("uniswapV3SwapCallback(int256,int256,bytes)", amount0Delta, amount1Delta, "")
        );
    }

    function spoofUnlock(address executor, bytes calldata data) external returns (bool ok, bytes memory err) {
        (ok, err) = executor.call(abi.encodeWithSignature("unlockCallback(bytes)", data));
    }

    /// @dev Mimics a V3 pool's immutables, in case anything asked.
    function token0() external pure returns (address) {
        return address(1);
    }
}

/// @notice A recipient that refuses native ETH.
contract EthRejecter {}
