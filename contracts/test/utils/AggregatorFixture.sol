// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {StandInAggregatorRouter} from "../../devnet/aggregators/StandInAggregatorRouter.sol";
import {StandInAllowanceHolder} from "../../devnet/aggregators/StandInAllowanceHolder.sol";
import {StandInSettler} from "../../devnet/aggregators/StandInSettler.sol";
import {StandInSettlerRegistry} from "../../devnet/aggregators/StandInSettlerRegistry.sol";
import {IStandInV2Router, IStandInV3Router, StandInSwaps} from "../../devnet/aggregators/StandInSwaps.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {SwapAssertions} from "./SwapAssertions.sol";

/// @notice The devnet's aggregator stand-ins (aggregator-a's router; aggregator-b's allowance holder, an
///         active and a stale settler, the settler registry) on the official Uniswap pools, deployed before
///         Junction so the executor is built with them, as on the devnet. Builds their calldata with the
///         executor as taker and recipient, as the HTTP stand-ins do, and checks a swap through them exactly.
abstract contract AggregatorFixture is SwapAssertions {
    uint8 internal constant ENTRY_ROUTER = 1;
    uint8 internal constant ENTRY_HOLDER = 2;
    uint256 internal constant SETTLER_FEATURE = 2;
    /// @dev The stand-ins' own fees, inside their output (src/devnet/deploy-aggregators.ts).
    uint16 internal constant ROUTER_FEE_BPS = 10;
    uint16 internal constant SETTLER_FEE_BPS = 5;
    address internal constant ETH_ADDRESS = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    IStandInV3Router internal swapRouter;
    StandInAggregatorRouter internal aggRouter;
    StandInAllowanceHolder internal holder;
    StandInSettler internal settler;
    StandInSettler internal staleSettler;
    StandInSettlerRegistry internal settlerRegistry;
    address internal aggregatorFees = makeAddr("aggregatorFees");

    function _beforeJunction() internal virtual override {
        swapRouter = IStandInV3Router(
            _deploy(
                bytes.concat(
                    vm.getCode(_path("v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json")),
                    abi.encode(address(v3Factory), address(weth))
                )
            )
        );
        IStandInV2Router router02 = IStandInV2Router(address(v2Router));
        aggRouter = new StandInAggregatorRouter(router02, swapRouter, address(weth), aggregatorFees, ROUTER_FEE_BPS);
        holder = new StandInAllowanceHolder();
        staleSettler = new StandInSettler(router02, swapRouter, address(weth), holder, aggregatorFees, SETTLER_FEE_BPS);
        settler = new StandInSettler(router02, swapRouter, address(weth), holder, aggregatorFees, SETTLER_FEE_BPS);
        settlerRegistry = new StandInSettlerRegistry();
        settlerRegistry.setActive(uint128(SETTLER_FEATURE), address(settler));
        aggregatorTargets =
            IExecutor.AggregatorTargets(address(aggRouter), address(holder), address(settlerRegistry), SETTLER_FEATURE);
    }

    // ------------------------------------------------------------------ hops and calldata

    /// @dev A V2 hop (through Router02) or V3 hop (through SwapRouter at `fee`) into `tokenOut` (WETH for ETH).
    function _hop(address tokenOut, uint24 fee) internal view returns (StandInSwaps.Hop[] memory hops) {
        hops = new StandInSwaps.Hop[](1);
        hops[0] = StandInSwaps.Hop(fee == 0 ? 0 : 1, tokenOut == NATIVE ? address(weth) : tokenOut, fee);
    }

    /// @dev What the stand-ins pay out for that hop: the official quote less their own fee.
    function _standInOut(address tokenIn, address tokenOut, uint24 fee, uint256 amountIn, uint16 feeBps)
        internal
        returns (uint256)
    {
        uint256 gross = fee == 0 ? _quoteV2(tokenIn, tokenOut, amountIn) : _quoteV3(tokenIn, tokenOut, fee, amountIn);
        return gross - (gross * feeBps) / 10_000;
    }

    /// @dev aggregator-a's built transaction for `p`, paying the executor (its `recipient`).
    function _routerData(IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops) internal view returns (bytes memory) {
        return _routerDataFor(p, hops, address(executor));
    }

    /// @dev The same, paying `recipient` (a taker calling the router directly).
    function _routerDataFor(IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops, address recipient)
        internal
        pure
        returns (bytes memory)
    {
        return
            abi.encodeCall(StandInAggregatorRouter.swap, (p.tokenIn, p.amountIn, p.tokenOut, hops, 0, recipient, p.deadline));
    }

    /// @dev aggregator-b's firm-quote transaction for `p` through settler `s`, the executor as taker and recipient.
    function _execData(address s, IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops)
        internal
        view
        returns (bytes memory)
    {
        return _execDataFor(s, p, hops, address(executor));
    }

    /// @dev The same, paying `recipient` (a taker calling the allowance holder directly).
    function _execDataFor(address s, IExecutor.SwapParams memory p, StandInSwaps.Hop[] memory hops, address recipient)
        internal
        pure
        returns (bytes memory)
    {
        address sell = p.tokenIn == NATIVE ? ETH_ADDRESS : p.tokenIn;
        address buy = p.tokenOut == NATIVE ? ETH_ADDRESS : p.tokenOut;
        bytes[] memory actions = new bytes[](1);
        actions[0] = abi.encode(sell, p.amountIn, hops, p.deadline);
        bytes memory execute = abi.encodeCall(
            StandInSettler.execute, (StandInSettler.AllowedSlippage(recipient, buy, 0), actions, bytes32(0))
        );
        return abi.encodeCall(StandInAllowanceHolder.exec, (s, sell, p.amountIn, payable(s), execute));
    }

    // ------------------------------------------------------------------ swaps

    function _aggSwapAs(address user, IExecutor.SwapParams memory p, uint8 entry, bytes memory data)
        internal
        returns (uint256)
    {
        vm.prank(user);
        return executor.swapThroughAggregator{value: p.tokenIn == NATIVE ? p.amountIn : 0}(p, entry, data);
    }

    /// @dev The builder fee an aggregator swap charges: min(quoted, the builder's cap, 50); never a service fee.
    function _aggBuilderBps(IExecutor.SwapParams memory p) internal view returns (uint16 bps) {
        uint16 cap = registry.feePolicy(p.tokenIn, p.tokenOut, p.builderId).builderFeeCapBps;
        bps = p.maxBuilderFeeBps < cap ? p.maxBuilderFeeBps : cap;
        if (bps > 50) bps = 50;
    }

    /// @notice Swaps through `entry` as `payer` and checks every amount: the executor received
    ///         `expectedGross`, no service fee, the builder fee at its bps, the record, the payer charged exactly
    ///         `amountIn`, nothing left in the executor, and nothing anyone can spend (`_assertAllowsNothing`).
    function _aggSwapAndCheck(
        address payer,
        IExecutor.SwapParams memory p,
        uint8 entry,
        bytes memory data,
        uint256 expectedGross
    ) internal returns (uint256 amountOut) {
        Balances memory before = _snapshot(p);
        uint256 paid = _balance(p.tokenIn, payer);
        vm.recordLogs();
        amountOut = _aggSwapAs(payer, p, entry, data);
        _checkOutcome(payer, p, before, amountOut, Expected(expectedGross, 0, _aggBuilderBps(p)));
        assertEq(paid - _balance(p.tokenIn, payer), p.amountIn, "the payer paid exactly amountIn");
        _assertAllowsNothing(p.tokenIn);
    }

    /// @notice No one can spend the executor's `token`: the router has no allowance left, and the allowance
    ///         holder's lasting allowance (entry 2) opens only inside the executor's own `exec`, so the
    ///         settler, the stale settler and anyone else asking the holder for it are refused.
    function _assertAllowsNothing(address token) internal {
        if (token == NATIVE) return;
        assertEq(IERC20(token).allowance(address(executor), address(aggRouter)), 0, "allowance to the router");
        uint256 held = IERC20(token).balanceOf(address(executor));
        address[3] memory askers = [address(settler), address(staleSettler), address(this)];
        for (uint256 i; i < askers.length; ++i) {
            vm.prank(askers[i]);
            (bool ok, bytes memory reason) = address(holder).call(
                abi.encodeCall(StandInAllowanceHolder.transferFrom, (token, address(executor), askers[i], 1))
            );
            assertFalse(ok, "the holder moved the executor's tokens outside its exec");
            assertEq(bytes4(reason), StandInAllowanceHolder.ConfusedDeputy.selector, "refused for no allowance open");
        }
        assertEq(IERC20(token).balanceOf(address(executor)), held, "the executor's balance moved");
    }
}
