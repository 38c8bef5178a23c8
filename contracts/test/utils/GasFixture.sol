// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {AggregatorFixture} from "./AggregatorFixture.sol";
import {Routes} from "./Routes.sol";

/// @notice Where the gas tests (`.gas-snapshot`, `npm run snapshot:contracts`) measure: the devnet's contracts,
///         aggregator stand-ins included, in a steady state. Metering is paused while terms and calldata are
///         built, so each figure is the measured call itself: every account and slot it touches starts cold,
///         as in a fresh transaction (what `setUp` touched is not warm in the test), for the executor and the
///         contracts it is compared with alike; the 21,000 base and calldata cost of a real transaction are
///         not included. Refunds are, capped at a fifth of the gas as a transaction's are: the aggregator
///         stand-ins' own writes from zero (and cleared) reach that cap, so both their direct calls and the
///         executor's calls through them count about four fifths of their gas.
abstract contract GasFixture is AggregatorFixture {
    /// @dev Earlier swaps into each output token (with the demo builder, and with the service fee alone), so
    ///      the executor's credit slots and balances are non-zero: the figures are a steady-state swap's, not
    ///      the first ever (whose fresh credit slot costs ~17k more).
    function setUp() public virtual override {
        super.setUp();
        address[4] memory outs = [address(tokA), address(tokB), address(tokC), NATIVE];
        for (uint256 i; i < outs.length; ++i) {
            address tokenIn = outs[i] == address(tokA) ? address(tokB) : address(tokA);
            bytes memory route = outs[i] == NATIVE
                ? Routes.single(1e18, Routes.v3(NATIVE, 3000))
                : outs[i] == address(tokC)
                    ? Routes.single(1e18, Routes.v3(outs[i], 3000))
                    : Routes.single(1e18, Routes.v2(outs[i]));
            if (outs[i] == address(tokC)) tokenIn = address(tokB);
            vm.prank(bob);
            executor.swap(_params(tokenIn, outs[i], 1e18, bob), route);
            // And with the service fee alone (no builder), whose credit is kept under the zero account.
            IExecutor.SwapParams memory serviceOnly = _params(tokenIn, outs[i], 1e18, bob);
            (serviceOnly.builderId, serviceOnly.maxBuilderFeeBps) = (bytes32(0), 0);
            vm.prank(bob);
            executor.swap(serviceOnly, route);
        }
    }

    /// @dev Meters exactly one call, `alice` sending `data` to `to` (with `p.amountIn` as value for native
    ///      input); the caller paused metering while it built the calldata.
    function _measureCall(address to, IExecutor.SwapParams memory p, bytes memory data) internal {
        uint256 value = p.tokenIn == NATIVE ? p.amountIn : 0;
        vm.prank(alice);
        vm.resumeGasMetering();
        (bool ok,) = to.call{value: value}(data);
        vm.pauseGasMetering();
        require(ok, "swap failed");
    }

    /// @dev An unattributed swap with no fee charged (both caps 0, no builder): nothing is recorded.
    function _unattributed(IExecutor.SwapParams memory p) internal pure returns (IExecutor.SwapParams memory) {
        p = _noFees(p);
        p.builderId = bytes32(0);
        return p;
    }
}
