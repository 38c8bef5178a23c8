// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// forge-std only through Test.sol: importing its files by two paths makes solc-js crash on a cold build.
import {Test, Vm} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {BuilderRegistry} from "../../src/BuilderRegistry.sol";
import {Executor} from "../../src/Executor.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";
import {Credits} from "../utils/Credits.sol";
import {SettledData, SettledLogs} from "../utils/SettledLogs.sol";
import {StandInAggregatorRouter} from "../../devnet/aggregators/StandInAggregatorRouter.sol";
import {StandInAllowanceHolder} from "../../devnet/aggregators/StandInAllowanceHolder.sol";
import {StandInSettler} from "../../devnet/aggregators/StandInSettler.sol";
import {StandInSettlerRegistry} from "../../devnet/aggregators/StandInSettlerRegistry.sol";
import {StandInSwaps} from "../../devnet/aggregators/StandInSwaps.sol";

/// @notice Drives `swapThroughAggregator` through both entries with random directions, amounts, quoted
///         fees, attribution and minOut, against a randomly changing builder policy; plus calldata that must
///         be refused (a stale settler, bindings that do not match, an expired quote) and ETH sent to the
///         executor outside a swap. Counts every violation in ghost variables.
contract AggregatorHandler is Test {
    struct Env {
        Executor executor;
        BuilderRegistry registry;
        ISettlementCollector collector;
        StandInAggregatorRouter router;
        StandInAllowanceHolder holder;
        StandInSettler settler;
        StandInSettler staleSettler;
        StandInSettlerRegistry settlerRegistry;
        address tokA;
        address tokB;
        address weth;
        address gov;
        address treasury;
        bytes32 builderId;
        address builderWallet;
        address[] actors;
    }

    address internal constant NATIVE = address(0);
    address internal constant ETH_ADDRESS = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    Env internal env;
    uint16 public modelBuilderMax;
    bool public modelBuilderEnabled = true;

    uint256 public swapsSucceeded;
    uint256 public swapsReverted;
    uint256 public refusalsChecked;
    uint256 public violationsMinOut;
    uint256 public violationsFees;
    uint256 public violationsAccounting;
    uint256 public violationsFunds;
    uint256 public violationsRefusal;

    constructor(Env memory env_, uint16 builderMax) {
        env = env_;
        modelBuilderMax = builderMax;
    }

    // ------------------------------------------------------------------ actions

    /// @notice A random swap through entry 1 or 2; checks minOut, the fees against the model, the record,
    ///         and that only the payer's input moved.
    function swap(
        bool holderEntry,
        uint8 direction,
        uint256 amountSeed,
        uint16 quotedRoute,
        uint16 quotedBuilder,
        uint8 builderSel,
        uint256 minOutSeed,
        uint256 actorSeed
    ) external {
        address payer = env.actors[actorSeed % env.actors.length];
        IExecutor.SwapParams memory p = _params(direction, amountSeed, actorSeed);
        p.maxRouteFeeBps = quotedRoute;
        p.maxBuilderFeeBps = uint16(bound(quotedBuilder, 0, 120));
        uint256 which = builderSel % 3;
        p.builderId = which == 0 ? env.builderId : which == 1 ? keccak256(abi.encode(builderSel)) : bytes32(0);
        p.minOut = bound(minOutSeed, 0, p.amountIn + p.amountIn / 4);
        bytes memory data = holderEntry ? _execData(address(env.settler), p) : _routerData(p);
        _swapAndCheck(payer, p, holderEntry ? 2 : 1, data);
    }

    /// @notice Calldata the executor must refuse: a stale settler, another token or amount, a settler the
    ///         registry stopped naming, an expired firm quote, an unknown entry.
    function swapRefused(uint8 kind, uint8 direction, uint256 amountSeed, uint256 actorSeed) external {
        address payer = env.actors[actorSeed % env.actors.length];
        IExecutor.SwapParams memory p = _params(direction, amountSeed, actorSeed);
        uint256 k = kind % 5;
        uint8 entry = 2;
        bytes memory data;
        if (k == 0) {
            data = _execData(address(env.staleSettler), p);
        } else if (k == 1) {
            IExecutor.SwapParams memory other = _params(direction, amountSeed, actorSeed);
            other.amountIn = p.amountIn + 1;
            data = _execData(address(env.settler), other);
        } else if (k == 2) {
            IExecutor.SwapParams memory expired = _params(direction, amountSeed, actorSeed);
            expired.deadline = block.timestamp - 1;
            data = _execData(address(env.settler), expired);
        } else if (k == 3) {
            data = _routerData(p);
            entry = 3;
        } else {
            data = _execData(address(env.settler), p);
            vm.prank(env.settlerRegistry.owner());
            env.settlerRegistry.setActive(2, address(env.staleSettler));
        }
        ++refusalsChecked;
        vm.prank(payer);
        try env.executor.swapThroughAggregator{value: p.tokenIn == NATIVE ? p.amountIn : 0}(p, entry, data) {
            ++violationsRefusal;
        } catch {}
        if (k == 4) {
            vm.prank(env.settlerRegistry.owner());
            env.settlerRegistry.setActive(2, address(env.settler));
        }
    }

    /// @notice ETH sent to the executor outside a swap is refused.
    function sendEth(uint256 amount, uint256 actorSeed) external {
        amount = bound(amount, 1, 1e18);
        vm.prank(env.actors[actorSeed % env.actors.length]);
        (bool ok,) = address(env.executor).call{value: amount}("");
        if (ok) ++violationsRefusal;
    }

    /// @notice Governance moves the builder's cap, or suspends and restores it.
    function setBuilderPolicy(bool toggle, uint16 bps) external {
        vm.startPrank(env.gov);
        if (toggle) {
            modelBuilderEnabled = !modelBuilderEnabled;
            env.registry.setBuilderEnabled(env.builderId, modelBuilderEnabled);
        } else {
            modelBuilderMax = uint16(bound(bps, 0, 50));
            env.registry.setBuilderMaxFee(env.builderId, modelBuilderMax);
        }
        vm.stopPrank();
    }

    // ------------------------------------------------------------------ checks

    struct Before {
        uint256 recipient;
        uint256 treasury;
        uint256 builder;
        uint256 collectorIn;
        uint256[] actorsIn;
    }

    function _swapAndCheck(address payer, IExecutor.SwapParams memory p, uint8 entry, bytes memory data) internal {
        Before memory b = _before(p);
        vm.recordLogs();
        vm.prank(payer);
        try env.executor.swapThroughAggregator{value: p.tokenIn == NATIVE ? p.amountIn : 0}(p, entry, data) returns (
            uint256 amountOut
        ) {
            ++swapsSucceeded;
            uint256 received = _balance(p.tokenOut, p.recipient) - b.recipient;
            if (received < p.minOut || received != amountOut) ++violationsMinOut;
            _checkFunds(payer, p, b);
            _checkSettlement(p, b, amountOut);
        } catch {
            ++swapsReverted;
        }
    }

    function _before(IExecutor.SwapParams memory p) internal view returns (Before memory b) {
        b.recipient = _balance(p.tokenOut, p.recipient);
        b.treasury = _serviceOwed(p.tokenOut);
        b.builder = env.collector.claimable(env.builderWallet, p.tokenOut);
        b.collectorIn = _balance(p.tokenIn, address(env.executor));
        b.actorsIn = new uint256[](env.actors.length);
        for (uint256 i; i < env.actors.length; ++i) {
            b.actorsIn[i] = _balance(p.tokenIn, env.actors[i]);
        }
    }

    /// @dev The payer paid exactly `amountIn`; no other actor's input moved, nor what the executor held of it.
    function _checkFunds(address payer, IExecutor.SwapParams memory p, Before memory b) internal {
        for (uint256 i; i < env.actors.length; ++i) {
            uint256 expected = env.actors[i] == payer ? b.actorsIn[i] - p.amountIn : b.actorsIn[i];
            if (_balance(p.tokenIn, env.actors[i]) != expected) ++violationsFunds;
        }
        if (_balance(p.tokenIn, address(env.executor)) != b.collectorIn) ++violationsFunds;
    }

    function _checkSettlement(IExecutor.SwapParams memory p, Before memory b, uint256 amountOut) internal {
        (SettledData memory d, uint256 count) = _settled();
        uint16 builderBps = _expectedBuilderBps(p);
        bool recorded = p.builderId != bytes32(0) || builderBps != 0;
        if (count != (recorded ? 1 : 0)) ++violationsAccounting;
        uint256 builderCredit = env.collector.claimable(env.builderWallet, p.tokenOut) - b.builder;
        // Fee rule 2: never a service fee, whatever was quoted.
        if (_serviceOwed(p.tokenOut) != b.treasury) ++violationsFees;
        if (!recorded) {
            if (builderCredit != 0) ++violationsFees;
            return;
        }
        uint256 gross = d.grossAmountOut;
        if (d.routeFee != 0 || d.builderFee != (gross * builderBps) / 10_000) ++violationsFees;
        if (d.builderFee > (gross * 50) / 10_000 || d.builderFee > (gross * p.maxBuilderFeeBps) / 10_000) ++violationsFees;
        if (builderCredit != d.builderFee || d.amountOut != amountOut || amountOut + d.builderFee != gross) {
            ++violationsAccounting;
        }
    }

    /// @dev The service's fees of `token`, under every account a swap here can credit.
    /// @notice The accounts a swap here can credit: none payable, the builder's wallet.
    function feeAccounts() public view returns (address[] memory accounts) {
        accounts = new address[](2);
        (accounts[0], accounts[1]) = (address(0), env.builderWallet);
    }

    function _serviceOwed(address token) internal view returns (uint256) {
        return Credits.service(env.collector, token, feeAccounts());
    }

    function _settled() internal returns (SettledData memory d, uint256 count) {
        return SettledLogs.last(vm.getRecordedLogs(), address(env.collector), address(env.executor), env.registry);
    }

    function _expectedBuilderBps(IExecutor.SwapParams memory p) internal view returns (uint16 bps) {
        uint16 cap = p.builderId == env.builderId && modelBuilderEnabled ? modelBuilderMax : 0;
        bps = p.maxBuilderFeeBps < cap ? p.maxBuilderFeeBps : cap;
        if (bps > 50) bps = 50;
    }

    // ------------------------------------------------------------------ terms and calldata

    /// @dev A -> B, B -> A, ETH -> A or A -> ETH, one V2 hop, at a bounded amount.
    function _params(uint8 direction, uint256 amountSeed, uint256 actorSeed)
        internal
        view
        returns (IExecutor.SwapParams memory p)
    {
        uint256 d = direction % 4;
        (address x, address y) = d == 0
            ? (env.tokA, env.tokB)
            : d == 1 ? (env.tokB, env.tokA) : d == 2 ? (NATIVE, env.tokA) : (env.tokA, NATIVE);
        uint256 amountIn = bound(amountSeed, 1e9, d == 2 ? 5_000e18 : 50_000e18);
        p = IExecutor.SwapParams({
            tokenIn: x,
            tokenOut: y,
            amountIn: amountIn,
            minOut: 0,
            recipient: env.actors[(actorSeed / 7) % env.actors.length],
            deadline: block.timestamp + 60,
            maxRouteFeeBps: 0,
            maxBuilderFeeBps: 0,
            builderId: bytes32(0),
            quoteId: keccak256(abi.encode(amountIn)),
            keyIdHash: bytes32(uint256(1))
        });
    }

    function _hops(address tokenOut) internal view returns (StandInSwaps.Hop[] memory hops) {
        hops = new StandInSwaps.Hop[](1);
        hops[0] = StandInSwaps.Hop(0, tokenOut == NATIVE ? env.weth : tokenOut, 0);
    }

    function _routerData(IExecutor.SwapParams memory p) internal view returns (bytes memory) {
        return abi.encodeCall(
            StandInAggregatorRouter.swap,
            (p.tokenIn, p.amountIn, p.tokenOut, _hops(p.tokenOut), 0, address(env.executor), p.deadline)
        );
    }

    function _execData(address s, IExecutor.SwapParams memory p) internal view returns (bytes memory) {
        address sell = p.tokenIn == NATIVE ? ETH_ADDRESS : p.tokenIn;
        address buy = p.tokenOut == NATIVE ? ETH_ADDRESS : p.tokenOut;
        bytes[] memory actions = new bytes[](1);
        actions[0] = abi.encode(sell, p.amountIn, _hops(p.tokenOut), p.deadline);
        bytes memory execute = abi.encodeCall(
            StandInSettler.execute, (StandInSettler.AllowedSlippage(address(env.executor), buy, 0), actions, bytes32(0))
        );
        return abi.encodeCall(StandInAllowanceHolder.exec, (s, sell, p.amountIn, payable(s), execute));
    }

    function _balance(address token, address who) internal view returns (uint256) {
        return token == NATIVE ? who.balance : IERC20(token).balanceOf(who);
    }
}
