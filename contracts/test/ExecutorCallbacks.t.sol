// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../src/interfaces/ISettlementCollector.sol";
import {PoolKey} from "../src/interfaces/external/IPoolManager.sol";
import {CallbackSpoofer} from "./hostile/CallbackSpoofer.sol";
import {ReentrantToken} from "./hostile/ReentrantToken.sol";
import {Routes} from "./utils/Routes.sol";
import {SwapAssertions} from "./utils/SwapAssertions.sol";
import {IV2PairFull, IV3PoolFull} from "./utils/UniswapInterfaces.sol";

/// @notice Callback spoofing (an EOA, a fake pool, a canonical pool of another fee tier, the PoolManager
///         outside a swap) and a reentrant token attacking mid-swap: none can get paid or re-enter.
contract ExecutorCallbacksTest is SwapAssertions {
    ReentrantToken internal evil;
    CallbackSpoofer internal spoofer;
    address internal a;
    address internal pool3000;
    address internal pool500;

    function setUp() public override {
        super.setUp();
        a = address(tokA);
        spoofer = new CallbackSpoofer();
        evil = new ReentrantToken(address(this), 1e30);
        address e = address(evil);
        address pair = v2Factory.createPair(e, a);
        evil.transfer(pair, 1_000_000e18);
        tokA.transfer(pair, 1_000_000e18);
        IV2PairFull(pair).mint(address(this));
        pool3000 = _evilV3Pool(3000, 60);
        pool500 = _evilV3Pool(500, 10);
        PoolKey memory key = _v4Key(e, a, 3000, 60);
        poolManager.initialize(key, PRICE_ONE);
        evil.transfer(address(lp), 2_000_000e18);
        tokA.transfer(address(lp), 2_000_000e18);
        lp.addV4(key, -887220, 887220, 1e24);
        evil.transfer(alice, 1e24);
        vm.prank(alice);
        evil.approve(address(executor), type(uint256).max);
    }

    function _evilV3Pool(uint24 fee, int24 spacing) private returns (address pool) {
        pool = v3Factory.createPool(address(evil), a, fee);
        IV3PoolFull(pool).initialize(PRICE_ONE);
        evil.transfer(address(lp), 2_000_000e18);
        tokA.transfer(address(lp), 2_000_000e18);
        lp.mintV3(IV3PoolFull(pool), -(887272 / spacing) * spacing, (887272 / spacing) * spacing, 1e24);
    }

    function _unauthorized(address caller) private pure returns (bytes memory) {
        return abi.encodeWithSelector(IExecutor.UnauthorizedCallback.selector, caller);
    }

    // ------------------------------------------------------------------ outside a swap

    function test_v3Callback_fromEoa_rejected() public {
        tokA.transfer(address(executor), 1); // even with something to take
        vm.expectRevert(_unauthorized(alice));
        vm.prank(alice);
        executor.uniswapV3SwapCallback(1, 0, "");
    }

    function test_v3Callback_fromFakePool_rejected() public {
        (bool ok, bytes memory err) = spoofer.spoofV3(address(executor), 1e18, 0);
        assertFalse(ok);
        assertEq(err, _unauthorized(address(spoofer)));
    }

    function test_v3Callback_fromCanonicalPool_outsideSwap_rejected() public {
        vm.expectRevert(_unauthorized(pool3000));
        vm.prank(pool3000);
        executor.uniswapV3SwapCallback(1e18, 0, "");
    }

    function test_unlockCallback_fromEoa_rejected() public {
        vm.expectRevert(_unauthorized(alice));
        vm.prank(alice);
        executor.unlockCallback(abi.encodePacked(address(0), uint256(1)));
    }

    function test_unlockCallback_fromFakeContract_rejected() public {
        (bool ok, bytes memory err) = spoofer.spoofUnlock(address(executor), abi.encodePacked(address(0), uint256(1)));
        assertFalse(ok);
        assertEq(err, _unauthorized(address(spoofer)));
    }

    function test_unlockCallback_fromPoolManager_whenNotAwaited_rejected() public {
        vm.expectRevert(_unauthorized(address(poolManager)));
        vm.prank(address(poolManager));
        executor.unlockCallback(abi.encodePacked(address(0), uint256(1)));
    }

    // ------------------------------------------------------------------ during a swap

    function test_v3Callback_fromWrongFeeTierPool_duringSwap_rejected() public {
        // While the executor swaps A -> EVIL in the 0.3% pool, the 0.05% pool of the same pair asks to be paid.
        evil.arm(address(executor), abi.encodeCall(executor.uniswapV3SwapCallback, (int256(1e18), int256(1e18), "")), pool500);
        uint256 amountIn = 1_000e18;
        uint256 gross = _quoteV3(a, address(evil), 3000, amountIn);
        _swapAndCheck(alice, _params(a, address(evil), amountIn, alice), Routes.single(amountIn, Routes.v3(address(evil), 3000)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        assertGt(evil.attempts(), 0);
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), _unauthorized(pool500));
    }

    function test_v3Callback_fromToken_duringSwap_rejected() public {
        evil.arm(address(executor), abi.encodeCall(executor.uniswapV3SwapCallback, (int256(1e18), int256(1e18), "")), address(0));
        uint256 amountIn = 1_000e18;
        uint256 gross = _quoteV3(address(evil), a, 3000, amountIn);
        _swapAndCheck(alice, _params(address(evil), a, amountIn, alice), Routes.single(amountIn, Routes.v3(a, 3000)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), _unauthorized(address(evil)));
    }

    function test_unlockCallback_fromToken_duringV4Swap_rejected() public {
        bytes memory steal = abi.encodePacked(a, uint256(1e18), Routes.v4(address(evil), 3000, 60));
        evil.arm(address(executor), abi.encodeCall(executor.unlockCallback, (steal)), address(0));
        uint256 amountIn = 1_000e18;
        uint256 gross = _quoteV4(a, address(evil), 3000, 60, amountIn);
        _swapAndCheck(alice, _params(a, address(evil), amountIn, alice), Routes.single(amountIn, Routes.v4(address(evil), 3000, 60)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), _unauthorized(address(evil)));
    }

    function test_reentrantToken_reenteringSwap_rejected_splitFundsSafe() public {
        // Split A -> EVIL: while branch 1's EVIL arrives, branch 2's A still sits in the executor. The token
        // tries to swap it away to itself by re-entering swap().
        uint256 amountIn = 2_000e18;
        IExecutor.SwapParams memory theft = _params(a, address(tokB), 1_000e18, address(evil));
        evil.arm(address(executor), abi.encodeCall(executor.swap, (theft, Routes.single(1_000e18, Routes.v2(address(tokB))))), address(0));
        uint256 gross = _quoteV2(a, address(evil), 1_000e18) + _quoteV3(a, address(evil), 3000, 1_000e18);
        bytes memory route = Routes.route(
            Routes.branch(1_000e18, Routes.v2(address(evil))), Routes.branch(1_000e18, Routes.v3(address(evil), 3000))
        );
        _swapAndCheck(alice, _params(a, address(evil), amountIn, alice), route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        assertGt(evil.attempts(), 0);
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), abi.encodeWithSelector(IExecutor.Reentrancy.selector));
        assertEq(tokB.balanceOf(address(evil)), 0);
        assertEq(tokA.balanceOf(address(evil)), 0);
    }

    /// @dev Claiming during a swap (here as the builder's wallet, whose credit in A is the swap's own): a
    ///      claim never runs while a swap's amounts are being measured.
    function test_reentrantToken_claimingDuringASwap_rejected() public {
        evil.arm(address(executor), abi.encodeCall(collector.claim, (a, address(evil))), builderWallet);
        uint256 amountIn = 1_000e18;
        uint256 gross = _quoteV2(address(evil), a, amountIn);
        _swapAndCheck(alice, _params(address(evil), a, amountIn, alice), Routes.single(amountIn, Routes.v2(a)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), abi.encodeWithSelector(IExecutor.Reentrancy.selector));
        assertEq(collector.claimable(address(evil), a), 0);
    }

    /// @dev A policy change made during a swap (here governance's, pranked by the token: suspending the builder
    ///      the swap pays) never reaches the executor's copy mid-swap: the registry's write-through is refused,
    ///      so the change fails whole and the swap settles on the policy it read.
    function test_reentrantToken_policyChangeDuringASwap_rejected() public {
        evil.arm(address(registry), abi.encodeCall(registry.setBuilderEnabled, (builderId, false)), gov);
        uint256 amountIn = 1_000e18;
        uint256 gross = _quoteV2(address(evil), a, amountIn);
        _swapAndCheck(alice, _params(address(evil), a, amountIn, alice), Routes.single(amountIn, Routes.v2(a)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), abi.encodeWithSelector(IExecutor.Reentrancy.selector));
        assertTrue(registry.builderById(builderId).enabled);
        assertEq(executor.feeTerms(address(evil), a, builderId), registry.feeTerms(address(evil), a, builderId));
    }

    function test_nonCanonicalPool_cannotBeNamed_routeDerivesPools() public {
        // A V3 pool from another factory (non-canonical) holding EVIL/A: the executor never reaches it,
        // because the route carries no addresses; it derives the canonical pool (which exists) instead.
        address otherFactory = _deploy(vm.getCode(_path("v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json")));
        (bool ok, bytes memory data) = otherFactory.call(abi.encodeWithSignature("createPool(address,address,uint24)", address(evil), a, 3000));
        assertTrue(ok);
        address rogue = abi.decode(data, (address));
        assertTrue(rogue != pool3000);
        uint256 amountIn = 1_000e18;
        uint256 before = tokA.balanceOf(pool3000);
        _swapAs(alice, _params(a, address(evil), amountIn, alice), Routes.single(amountIn, Routes.v3(address(evil), 3000)));
        assertEq(tokA.balanceOf(pool3000) - before, amountIn, "the canonical pool was paid");
        assertEq(tokA.balanceOf(rogue), 0, "the rogue pool was not");
    }
}
