// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";
import {Credits} from "../utils/Credits.sol";
import {SettledData, SettledLogs} from "../utils/SettledLogs.sol";
import {CallbackSpoofer} from "../hostile/CallbackSpoofer.sol";
import {Routes} from "../utils/Routes.sol";
import {ExecutorRouteCatalog} from "./ExecutorRouteCatalog.sol";
import {IUnlockCallback} from "../../src/interfaces/external/IPoolManager.sol";
import {IUniswapV3SwapCallback} from "../../src/interfaces/external/IUniswapV3Pool.sol";

/// @notice Drives the executor through random swaps (every route shape, native ETH in and out, fee-on-
///         transfer output, a reentrant token), random quoted fees against a randomly changing policy,
///         expired deadlines, wrong msg.value and spoofed callbacks. It keeps its own model of the fee policy
///         and counts every violation of the invariants (docs/architecture.md) in ghost variables.
contract ExecutorHandler is ExecutorRouteCatalog {
    CallbackSpoofer internal spoofer = new CallbackSpoofer();

    // The handler's own model of the fee policy (what governance set through `setPolicy`).
    uint16 public modelDefaultFee;
    mapping(bytes32 pair => uint16) internal _modelPairFee;
    mapping(bytes32 pair => bool) internal _modelPairSet;
    bool public modelBuilderEnabled = true;
    uint16 public modelBuilderMax;

    // Ghost variables: every one of the `violations*` must stay zero.
    uint256 public swapsSucceeded;
    uint256 public swapsReverted;
    uint256 public violationsMinOut;
    uint256 public violationsFees;
    uint256 public violationsUnpaidBuilder;
    uint256 public violationsDeadline;
    uint256 public violationsMsgValue;
    uint256 public violationsCallback;
    uint256 public violationsAccounting;
    uint256 public callbacksRejected;
    uint256 public reentrancyAttempts;
    uint256 public violationsClaims;
    uint256 public claimsPaid;

    address internal claimSink = makeAddr("claim sink");
    /// @dev The last successful swap's output: half the claims are in it, so claims do find credits.
    address internal lastTokenOut;

    constructor(Env memory env_, uint16 defaultFee, bytes32 abPair, uint16 abFee, uint16 builderMax) {
        env = env_;
        modelDefaultFee = defaultFee;
        _modelPairFee[abPair] = abFee;
        _modelPairSet[abPair] = true;
        modelBuilderMax = builderMax;
    }

    // ------------------------------------------------------------------ actions

    /// @notice A random swap with random terms; checks minOut, the fees against the model and the quote,
    ///         recipient + fees == gross, and that an unpaid builder got nothing.
    function swap(uint256 shape, uint256 amountSeed, uint16 quotedRoute, uint16 quotedBuilder, uint8 builderSel, uint256 minOutSeed, uint256 actorSeed)
        external
    {
        (IExecutor.SwapParams memory p, bytes memory route) = _build(shape, amountSeed, actorSeed);
        // Bit 15, the hint that the pair has a fee of its own, set at random: right or wrong, it changes no fee.
        p.maxRouteFeeBps = uint16(bound(quotedRoute, 0, 120)) | ((amountSeed >> 255) == 1 ? 0x8000 : 0);
        p.maxBuilderFeeBps = uint16(bound(quotedBuilder, 0, 120));
        p.builderId = _builder(builderSel);
        p.minOut = bound(minOutSeed, 0, p.amountIn + p.amountIn / 4);
        address payer = env.actors[actorSeed % env.actors.length];
        _swapAndCheck(payer, p, route);
    }

    /// @notice A swap whose deadline has passed must revert.
    function swapExpired(uint256 shape, uint256 amountSeed, uint256 ago, uint256 actorSeed) external {
        (IExecutor.SwapParams memory p, bytes memory route) = _build(shape, amountSeed, actorSeed);
        p.deadline = block.timestamp - bound(ago, 1, block.timestamp - 1);
        vm.prank(env.actors[actorSeed % env.actors.length]);
        try env.executor.swap{value: p.tokenIn == NATIVE ? p.amountIn : 0}(p, route) {
            ++violationsDeadline;
        } catch {}
    }

    /// @notice A swap whose msg.value differs from its native input (or is non-zero for ERC-20 input) must revert.
    function swapWrongValue(uint256 shape, uint256 amountSeed, uint256 valueSeed, uint256 actorSeed) external {
        (IExecutor.SwapParams memory p, bytes memory route) = _build(shape, amountSeed, actorSeed);
        uint256 expected = p.tokenIn == NATIVE ? p.amountIn : 0;
        uint256 value = bound(valueSeed, 0, p.amountIn * 2);
        if (value == expected) value = expected + 1;
        vm.prank(env.actors[actorSeed % env.actors.length]);
        try env.executor.swap{value: value}(p, route) {
            ++violationsMsgValue;
        } catch {}
    }

    /// @notice Callbacks from anyone but the pool being swapped with (an EOA, a fake pool contract, every
    ///         canonical pool outside a swap) or the awaited PoolManager must revert.
    function spoofCallback(uint8 who, int256 amount0, int256 amount1, bool unlock) external {
        bytes memory call = unlock
            ? abi.encodeCall(IUnlockCallback.unlockCallback, (abi.encodePacked(env.tokA, uint256(1e18), Routes.v4(env.tokB, 3000, 60))))
            : abi.encodeCall(IUniswapV3SwapCallback.uniswapV3SwapCallback, (amount0, amount1, ""));
        bool ok;
        uint256 choice = who % (env.canonicalPools.length + 3);
        if (choice == 0) {
            (ok,) = spoofer.spoofV3(address(env.executor), amount0, amount1);
            if (unlock) (ok,) = spoofer.spoofUnlock(address(env.executor), "");
        } else {
            address caller = choice == 1 ? env.actors[0] : choice == 2 ? env.poolManager : env.canonicalPools[choice - 3];
            vm.prank(caller);
            (ok,) = address(env.executor).call(call);
        }
        if (ok) ++violationsCallback;
        else ++callbacksRejected;
    }

    /// @notice Governance moves the policy: the default fee, the A/B fee (set or cleared), the builder's cap,
    ///         suspension. Each change is written through to the executor's copy, which the swaps charge by.
    function setPolicy(uint8 action, uint16 bps) external {
        bps = uint16(bound(bps, 0, 50));
        vm.startPrank(env.gov);
        uint256 which = action % 5;
        if (which == 0) {
            env.registry.setDefaultRouteFee(bps);
            modelDefaultFee = bps;
        } else if (which == 1) {
            env.registry.setPairRouteFee(env.tokA, env.tokB, bps);
            _modelPairFee[_pair(env.tokA, env.tokB)] = bps;
            _modelPairSet[_pair(env.tokA, env.tokB)] = true;
        } else if (which == 4) {
            env.registry.clearPairRouteFee(env.tokA, env.tokB);
            _modelPairSet[_pair(env.tokA, env.tokB)] = false;
        } else if (which == 2) {
            env.registry.setBuilderMaxFee(env.builderId, bps);
            modelBuilderMax = bps;
        } else {
            modelBuilderEnabled = !modelBuilderEnabled;
            env.registry.setBuilderEnabled(env.builderId, modelBuilderEnabled);
        }
        vm.stopPrank();
    }

    /// @notice A swap in or out of the reentrant token while it attacks: re-entering swap(), spoofing either
    ///         callback (also as the canonical pool of another fee tier) or claiming fees mid-swap.
    function reentrantSwap(uint8 attack, uint256 amountSeed, bool evilIn, uint256 actorSeed) external {
        uint256 amount = bound(amountSeed, 1e15, 50_000e18);
        address evil = address(env.evil);
        _arm(attack % 5);
        address payer = env.actors[actorSeed % env.actors.length];
        (address tokenIn, address tokenOut) = evilIn ? (evil, env.tokA) : (env.tokA, evil);
        IExecutor.SwapParams memory p = _params(tokenIn, tokenOut, amount, payer);
        bytes memory route = Routes.route(
            Routes.branch(amount / 2, Routes.v2(tokenOut)), Routes.branch(amount - amount / 2, Routes.v3(tokenOut, 3000))
        );
        ++reentrancyAttempts;
        _swapAndCheck(payer, p, route);
        env.evil.disarm();
    }

    /// @notice Someone claims builder fees, then the service's, in some token: only the builder's wallet moves
    ///         its builder fees and only the registry's treasury the service's, each exactly what was credited;
    ///         anyone else (payers, the suspended builder's wallet, governance, the reentrant token) moves
    ///         nothing.
    function claim(uint256 whoSeed, uint256 tokenSeed) external {
        // Half the time an owner (so claims do pay), else anyone else.
        address[6] memory candidates =
            [env.builderWallet, env.treasury, env.suspendedWallet, env.actors[0], address(env.evil), env.gov];
        address who = whoSeed % 2 == 0 ? candidates[(whoSeed / 2) % 2] : candidates[2 + (whoSeed / 2) % 4];
        address[6] memory assets = [env.tokA, env.tokB, env.tokC, env.tax, env.weth, NATIVE];
        address token = tokenSeed % 2 == 0 ? lastTokenOut : assets[(tokenSeed / 2) % assets.length];
        uint256 credited = env.collector.claimable(who, token);
        vm.prank(who);
        try env.collector.claim(token, claimSink) returns (uint256 paid) {
            if (paid != credited || paid == 0) ++violationsClaims;
            ++claimsPaid;
        } catch {
            if (credited != 0) ++violationsClaims;
        }
        uint256 service = _serviceOwed(token);
        vm.prank(who);
        try env.collector.claimService(token, feeAccounts(), claimSink) returns (uint256 paid) {
            if (who != env.treasury || paid != service) ++violationsClaims;
            ++claimsPaid;
        } catch {
            if (who == env.treasury && service != 0) ++violationsClaims;
        }
    }

    // ------------------------------------------------------------------ checks

    struct Before {
        uint256 recipient;
        uint256 treasury;
        uint256 builder;
    }

    function _swapAndCheck(address payer, IExecutor.SwapParams memory p, bytes memory route) internal {
        Before memory b = Before(
            _balance(p.tokenOut, p.recipient),
            _serviceOwed(p.tokenOut),
            env.collector.claimable(env.builderWallet, p.tokenOut)
        );
        (uint16 routeBps, uint16 builderBps) = _expectedBps(p);
        vm.recordLogs();
        vm.prank(payer);
        try env.executor.swap{value: p.tokenIn == NATIVE ? p.amountIn : 0}(p, route) returns (uint256 amountOut) {
            ++swapsSucceeded;
            lastTokenOut = p.tokenOut;
            uint256 received = _balance(p.tokenOut, p.recipient) - b.recipient;
            if (received < p.minOut || amountOut < p.minOut || received != amountOut) ++violationsMinOut;
            _checkSettlement(p, b, routeBps, builderBps, amountOut);
        } catch {
            ++swapsReverted;
        }
    }

    function _checkSettlement(
        IExecutor.SwapParams memory p,
        Before memory b,
        uint16 routeBps,
        uint16 builderBps,
        uint256 amountOut
    ) internal {
        (SettledData memory d, uint256 count) = _settled();
        // Recorded exactly once when attributed or charged; an unattributed swap that charges nothing is not.
        bool recorded = p.builderId != bytes32(0) || routeBps != 0 || builderBps != 0;
        if (count != (recorded ? 1 : 0)) ++violationsAccounting;
        if (!recorded) {
            _checkNoCredits(p, b);
            return;
        }
        uint256 gross = d.grossAmountOut;
        // Each fee is exactly floor(gross * min(quoted, policy, 50) / 10000): never above its cap nor the quote.
        if (d.routeFee != (gross * routeBps) / 10_000 || d.builderFee != (gross * builderBps) / 10_000) ++violationsFees;
        if (d.routeFee > (gross * 50) / 10_000 || d.builderFee > (gross * 50) / 10_000) ++violationsFees;
        if (d.routeFee > (gross * (p.maxRouteFeeBps & 0x7fff)) / 10_000 || d.builderFee > (gross * p.maxBuilderFeeBps) / 10_000) {
            ++violationsFees;
        }
        _checkCredits(p, b, d, amountOut);
    }

    function _checkCredits(IExecutor.SwapParams memory p, Before memory b, SettledData memory d, uint256 amountOut)
        internal
    {
        uint256 builderCredit = env.collector.claimable(env.builderWallet, p.tokenOut) - b.builder;
        uint256 treasuryCredit = _serviceOwed(p.tokenOut) - b.treasury;
        // Fee-on-transfer output: the recipient's share is taxed again on its way out of the collector, by
        // design; the fees are taken from what arrived, so they are credited in full for every token.
        if (p.tokenOut != env.tax && amountOut + d.routeFee + d.builderFee != d.grossAmountOut) ++violationsAccounting;
        if (builderCredit != d.builderFee || treasuryCredit != d.routeFee) ++violationsAccounting;
        // A disabled, unknown or absent builder is never paid.
        bool paid = p.builderId == env.builderId && modelBuilderEnabled;
        if (!paid && (d.builderFee != 0 || builderCredit != 0)) ++violationsUnpaidBuilder;
    }

    /// @dev An unrecorded swap pays no fee: nothing is credited to anyone.
    function _checkNoCredits(IExecutor.SwapParams memory p, Before memory b) internal {
        if (env.collector.claimable(env.builderWallet, p.tokenOut) != b.builder) ++violationsAccounting;
        if (_serviceOwed(p.tokenOut) != b.treasury) ++violationsAccounting;
    }

    /// @dev The service's fees of `token`, under every account a swap here can credit.
    /// @notice The accounts a swap here can credit: none payable, the builder's wallet, the suspended one's.
    function feeAccounts() public view returns (address[] memory accounts) {
        accounts = new address[](3);
        (accounts[0], accounts[1], accounts[2]) = (address(0), env.builderWallet, env.suspendedWallet);
    }

    function _serviceOwed(address token) internal view returns (uint256) {
        return Credits.service(env.collector, token, feeAccounts());
    }

    function _settled() internal returns (SettledData memory d, uint256 count) {
        return SettledLogs.last(vm.getRecordedLogs(), address(env.collector), address(env.executor), env.registry);
    }

    function _expectedBps(IExecutor.SwapParams memory p) internal view returns (uint16 routeBps, uint16 builderBps) {
        bytes32 pair = _pair(p.tokenIn, p.tokenOut);
        uint16 policy = _modelPairSet[pair] ? _modelPairFee[pair] : modelDefaultFee;
        routeBps = _min(_min(p.maxRouteFeeBps & 0x7fff, policy), 50);
        uint16 cap = p.builderId == env.builderId && modelBuilderEnabled ? modelBuilderMax : 0;
        builderBps = _min(_min(p.maxBuilderFeeBps, cap), 50);
    }

    function _arm(uint256 attack) internal {
        address evil = address(env.evil);
        if (attack == 0) {
            IExecutor.SwapParams memory theft = _params(env.tokA, env.tokB, 1e18, evil);
            env.evil.arm(address(env.executor), abi.encodeCall(IExecutor.swap, (theft, Routes.single(1e18, Routes.v2(env.tokB)))), address(0));
        } else if (attack == 1) {
            env.evil.arm(address(env.executor), abi.encodeCall(IUniswapV3SwapCallback.uniswapV3SwapCallback, (1e18, 1e18, "")), address(0));
        } else if (attack == 2) {
            // As the canonical EVIL/A pool of the other fee tier, while the 0.3% pool is being swapped with.
            env.evil.arm(
                address(env.executor), abi.encodeCall(IUniswapV3SwapCallback.uniswapV3SwapCallback, (1e18, 1e18, "")), env.canonicalPools[0]
            );
        } else if (attack == 3) {
            env.evil.arm(address(env.executor), abi.encodeCall(IUnlockCallback.unlockCallback, (abi.encodePacked(env.tokA, uint256(1e18)))), address(0));
        } else {
            // Claim the builder's fees mid-swap, as its wallet.
            env.evil.arm(address(env.executor), abi.encodeCall(ISettlementCollector.claim, (env.tokA, evil)), env.builderWallet);
        }
    }
}
