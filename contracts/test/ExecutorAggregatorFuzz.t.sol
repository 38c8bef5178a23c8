// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {StandInSwaps} from "../devnet/aggregators/StandInSwaps.sol";
import {AggregatorFixture} from "./utils/AggregatorFixture.sol";

/// @notice Stateless fuzzing of `swapThroughAggregator` through both stand-ins: random amounts, directions
///         (ERC-20, native in, native out), quoted fees and attribution; every amount exact, the service fee
///         always 0, the builder fee `min(quoted, cap, 50)`, minOut enforced to the wei.
contract ExecutorAggregatorFuzzTest is AggregatorFixture {
    /// @dev One of three directions over pools both stand-ins reach in one hop: A -> B, ETH -> A, A -> ETH.
    function _terms(uint256 amountSeed, uint8 direction, bool v3)
        internal
        view
        returns (IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops, uint24 fee)
    {
        uint256 d = direction % 3;
        (address x, address y) =
            d == 0 ? (address(tokA), address(tokB)) : d == 1 ? (NATIVE, address(tokA)) : (address(tokA), NATIVE);
        uint256 amountIn = bound(amountSeed, 1e9, d == 1 ? 50_000e18 : 200_000e18);
        fee = v3 ? 3000 : 0;
        p = _params(x, y, amountIn, bob);
        hops = _hop(y, fee);
    }

    function _fees(IExecutor.SwapParams memory p, uint16 quotedRoute, uint16 quotedBuilder, uint8 builderSel)
        internal
        view
    {
        p.maxRouteFeeBps = quotedRoute;
        p.maxBuilderFeeBps = uint16(bound(quotedBuilder, 0, 120));
        p.builderId = builderSel % 3 == 0 ? builderId : builderSel % 3 == 1 ? keccak256(abi.encode(builderSel)) : bytes32(0);
    }

    /// @notice Either entry, any direction, any quoted fees and attribution: every amount exact.
    function test_fuzz_exact(
        bool holderEntry,
        uint256 amountSeed,
        uint8 direction,
        bool v3,
        uint16 quotedRoute,
        uint16 quotedBuilder,
        uint8 builderSel
    ) public {
        (IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops, uint24 fee) = _terms(amountSeed, direction, v3);
        _fees(p, quotedRoute, quotedBuilder, builderSel);
        uint16 standInFee = holderEntry ? SETTLER_FEE_BPS : ROUTER_FEE_BPS;
        uint256 gross = _standInOut(p.tokenIn, p.tokenOut, fee, p.amountIn, standInFee);
        bytes memory data = holderEntry ? _execData(address(settler), p, hops) : _routerData(p, hops);
        _aggSwapAndCheck(alice, p, holderEntry ? ENTRY_HOLDER : ENTRY_ROUTER, data, gross);
    }

    /// @notice Without a builder fee the aggregator may pay the recipient directly or pay the executor, which
    ///         sends it on: either way the recipient receives exactly the aggregator's output and the executor
    ///         keeps nothing of it (`_aggSwapAndCheck`: every balance, the record, nothing anyone can spend).
    function test_fuzz_noBuilderFee_eitherPayee(
        bool holderEntry,
        bool direct,
        uint256 amountSeed,
        uint8 direction,
        bool v3,
        uint8 builderSel
    ) public {
        (IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops, uint24 fee) = _terms(amountSeed, direction, v3);
        _fees(p, 50, 0, builderSel);
        uint256 gross =
            _standInOut(p.tokenIn, p.tokenOut, fee, p.amountIn, holderEntry ? SETTLER_FEE_BPS : ROUTER_FEE_BPS);
        bytes memory data = _dataPaying(holderEntry, p, hops, direct ? p.recipient : address(executor));
        assertEq(_aggSwapAndCheck(alice, p, holderEntry ? ENTRY_HOLDER : ENTRY_ROUTER, data, gross), gross);
    }

    function _dataPaying(bool holderEntry, IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops, address payee)
        private
        view
        returns (bytes memory)
    {
        return holderEntry ? _execDataFor(address(settler), p, hops, payee) : _routerDataFor(p, hops, payee);
    }

    /// @notice The swap goes through exactly when the recipient's net output reaches minOut. A few hundred
    ///         values cover its 5 offsets x 3 directions x 2 entries; CI need not spend 10,000 runs on it.
    /// forge-config: ci.fuzz.runs = 1000
    function test_fuzz_minOut_boundary(uint256 amountSeed, uint8 direction, bool holderEntry, uint256 minOutSeed)
        public
    {
        (IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops,) = _terms(amountSeed, direction, false);
        uint16 fee = holderEntry ? SETTLER_FEE_BPS : ROUTER_FEE_BPS;
        uint256 gross = _standInOut(p.tokenIn, p.tokenOut, 0, p.amountIn, fee);
        uint256 net = gross - (gross * BUILDER_FEE) / 10_000;
        p.minOut = bound(minOutSeed, net > 2 ? net - 2 : 0, net + 2);
        uint8 entry = holderEntry ? ENTRY_HOLDER : ENTRY_ROUTER;
        bytes memory data = holderEntry ? _execData(address(settler), p, hops) : _routerData(p, hops);
        if (p.minOut > net) {
            vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, net, p.minOut));
            _aggSwapAs(alice, p, entry, data);
        } else {
            _aggSwapAndCheck(alice, p, entry, data, gross);
        }
    }
}
