// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Executor} from "../src/Executor.sol";
import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {AggregatorFixture} from "./utils/AggregatorFixture.sol";

/// @notice `swapThroughAggregator` through both devnet stand-ins on the official pools: ERC-20 and native ETH
///         in and out, with a builder fee and without, attributed and not; every amount checked wei for wei
///         against the official Router02 / QuoterV2 less the stand-in's own fee. Never a service fee.
contract ExecutorAggregatorTest is AggregatorFixture {
    address internal a;
    address internal b;

    function setUp() public override {
        super.setUp();
        a = address(tokA);
        b = address(tokB);
    }

    // ------------------------------------------------------------------ entry 1: the router

    function test_router_erc20_builderFee_noServiceFee() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, bob);
        assertEq(p.maxRouteFeeBps, 50, "a service fee is quoted, and ignored");
        uint256 gross = _standInOut(a, b, 0, amountIn, ROUTER_FEE_BPS);
        uint256 out = _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(b, 0)), gross);
        assertEq(out, gross - (gross * BUILDER_FEE) / 10_000, "net of the builder fee alone");
    }

    function test_router_erc20_attributedNoFee_recorded() public {
        uint256 amountIn = 2_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(b, 3000)), _standInOut(a, b, 3000, amountIn, ROUTER_FEE_BPS));
    }

    function test_router_erc20_unattributed_notRecorded() public {
        uint256 amountIn = 500e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        p.builderId = bytes32(0);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(b, 0)), _standInOut(a, b, 0, amountIn, ROUTER_FEE_BPS));
    }

    function test_router_nativeIn_builderFee() public {
        uint256 amountIn = 3e18;
        IExecutor.SwapParams memory p = _params(NATIVE, a, amountIn, bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(a, 3000)), _standInOut(NATIVE, a, 3000, amountIn, ROUTER_FEE_BPS));
    }

    function test_router_nativeOut_builderFee() public {
        uint256 amountIn = 4_000e18;
        IExecutor.SwapParams memory p = _params(a, NATIVE, amountIn, bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(NATIVE, 0)), _standInOut(a, NATIVE, 0, amountIn, ROUTER_FEE_BPS));
    }

    function test_router_nativeOut_unattributed() public {
        uint256 amountIn = 4_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, NATIVE, amountIn, bob));
        p.builderId = bytes32(0);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(NATIVE, 3000)), _standInOut(a, NATIVE, 3000, amountIn, ROUTER_FEE_BPS));
    }

    // Without a builder fee nothing needs the output in custody: the service builds the router's transaction
    // for the swap's recipient, and the executor measures what the recipient gained.

    function test_router_erc20_unattributed_paysRecipientDirectly() public {
        uint256 amountIn = 500e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        p.builderId = bytes32(0);
        bytes memory data = _routerDataFor(p, _hop(b, 0), bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, data, _standInOut(a, b, 0, amountIn, ROUTER_FEE_BPS));
    }

    function test_router_erc20_attributedNoFee_paysRecipientDirectly_recorded() public {
        uint256 amountIn = 2_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        bytes memory data = _routerDataFor(p, _hop(b, 3000), bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, data, _standInOut(a, b, 3000, amountIn, ROUTER_FEE_BPS));
    }

    function test_router_nativeOut_paysRecipientDirectly() public {
        uint256 amountIn = 4_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, NATIVE, amountIn, bob));
        bytes memory data = _routerDataFor(p, _hop(NATIVE, 3000), bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, data, _standInOut(a, NATIVE, 3000, amountIn, ROUTER_FEE_BPS));
    }

    /// @notice With a builder fee the output must come through the executor: paid to the recipient directly,
    ///         the executor received nothing to charge, so the recipient's share is nothing and the swap reverts
    ///         (the builder is never paid short by a transaction built for the wrong recipient).
    function test_router_builderFee_outputPaidAroundTheExecutor_reverts() public {
        IExecutor.SwapParams memory p = _params(a, b, 1_000e18, bob);
        p.minOut = 1;
        bytes memory data = _routerDataFor(p, _hop(b, 0), bob);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, 0, 1));
        _aggSwapAs(alice, p, ENTRY_ROUTER, data);
    }

    // ------------------------------------------------------------------ entry 2: the allowance holder

    function test_holder_erc20_builderFee_noServiceFee() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, bob);
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(b, 500)), _standInOut(a, b, 500, amountIn, SETTLER_FEE_BPS));
    }

    function test_holder_erc20_attributedNoFee_recorded() public {
        uint256 amountIn = 7_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(b, a, amountIn, alice));
        _aggSwapAndCheck(bob, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(a, 0)), _standInOut(b, a, 0, amountIn, SETTLER_FEE_BPS));
    }

    function test_holder_erc20_unattributed_notRecorded() public {
        uint256 amountIn = 10e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        p.builderId = bytes32(0);
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(b, 0)), _standInOut(a, b, 0, amountIn, SETTLER_FEE_BPS));
    }

    function test_holder_nativeIn_builderFee() public {
        uint256 amountIn = 2e18;
        IExecutor.SwapParams memory p = _params(NATIVE, a, amountIn, bob);
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(a, 0)), _standInOut(NATIVE, a, 0, amountIn, SETTLER_FEE_BPS));
    }

    function test_holder_nativeOut_builderFee() public {
        uint256 amountIn = 900e18;
        IExecutor.SwapParams memory p = _params(a, NATIVE, amountIn, bob);
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(NATIVE, 3000)), _standInOut(a, NATIVE, 3000, amountIn, SETTLER_FEE_BPS));
    }

    function test_holder_nativeOut_attributedNoFee() public {
        uint256 amountIn = 900e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, NATIVE, amountIn, bob));
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(NATIVE, 0)), _standInOut(a, NATIVE, 0, amountIn, SETTLER_FEE_BPS));
    }

    // ------------------------------------------------------------------ fees

    /// @notice A quoted builder fee above the builder's registered cap is charged at the cap; a suspended
    ///         builder is paid nothing; the service fee stays 0 throughout.
    function test_builderFee_cappedByPolicy_andSuspension() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, bob);
        vm.prank(gov);
        registry.setBuilderMaxFee(builderId, 20);
        p.maxBuilderFeeBps = 120;
        assertEq(_aggBuilderBps(p), 20, "charged at the builder's cap");
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(b, 0)), _standInOut(a, b, 0, amountIn, ROUTER_FEE_BPS));

        vm.prank(gov);
        registry.setBuilderEnabled(builderId, false);
        assertEq(_aggBuilderBps(p), 0, "a suspended builder is not paid");
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _execData(address(settler), p, _hop(b, 0)), _standInOut(a, b, 0, amountIn, SETTLER_FEE_BPS));
    }

    function test_minOut_enforcedOnWhatTheRecipientReceived() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, bob);
        uint256 gross = _standInOut(a, b, 0, amountIn, ROUTER_FEE_BPS);
        uint256 net = gross - (gross * BUILDER_FEE) / 10_000;
        p.minOut = net + 1;
        bytes memory data = _routerData(p, _hop(b, 0));
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, net, net + 1));
        _aggSwapAs(alice, p, ENTRY_ROUTER, data);
        p.minOut = net;
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _routerData(p, _hop(b, 0)), gross);
    }

    // ------------------------------------------------------------------ entries and bindings

    function test_unknownEntry_disabled() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        bytes memory data = _routerData(p, _hop(b, 0));
        for (uint8 entry; entry < 5; entry += 3) {
            vm.expectRevert(abi.encodeWithSelector(IExecutor.AggregatorDisabled.selector, entry));
            _aggSwapAs(alice, p, entry, data);
        }
    }

    /// @notice An executor whose deployment named no aggregator refuses both entries before anything moves.
    function test_zeroTargets_disableBothEntries() public {
        // An allowance holder without a registry to name its settler is disabled too.
        Executor bare =
            _newExecutor(IExecutor.AggregatorTargets(address(0), address(holder), address(0), SETTLER_FEATURE));
        vm.prank(alice);
        tokA.approve(address(bare), type(uint256).max);
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.AggregatorDisabled.selector, ENTRY_ROUTER));
        bare.swapThroughAggregator(p, ENTRY_ROUTER, _routerData(p, _hop(b, 0)));
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.AggregatorDisabled.selector, ENTRY_HOLDER));
        bare.swapThroughAggregator(p, ENTRY_HOLDER, _execData(address(settler), p, _hop(b, 0)));
    }

    /// @notice One contract as both entries' target is refused at deployment: entry 1's unchecked calldata
    ///         would reach the holder as the executor and open its lasting allowances to any operator.
    function test_routerAsAllowanceHolder_refusedAtDeployment() public {
        vm.expectRevert(abi.encodeWithSelector(IExecutor.AggregatorTargetsOverlap.selector, address(holder)));
        _newExecutor(IExecutor.AggregatorTargets(address(holder), address(holder), address(settlerRegistry), SETTLER_FEATURE));
    }

    function test_holder_staleSettler_refused() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.SettlerNotActive.selector, address(staleSettler)));
        _aggSwapAs(alice, p, ENTRY_HOLDER, _execData(address(staleSettler), p, _hop(b, 0)));
    }

    /// @notice A firm quote taken while `settler` was active fails once the registry names another.
    function test_holder_settlerReplacedAfterQuote_refused() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        bytes memory data = _execData(address(settler), p, _hop(b, 0));
        settlerRegistry.setActive(uint128(SETTLER_FEATURE), address(staleSettler));
        vm.expectRevert(abi.encodeWithSelector(IExecutor.SettlerNotActive.selector, address(settler)));
        _aggSwapAs(alice, p, ENTRY_HOLDER, data);
        settlerRegistry.setActive(uint128(SETTLER_FEATURE), address(0));
        vm.expectRevert(abi.encodeWithSelector(IExecutor.SettlerNotActive.selector, address(settler)));
        _aggSwapAs(alice, p, ENTRY_HOLDER, data);
    }

    /// @notice The operator and the target must both be the active settler.
    function test_holder_targetNotTheOperator_refused() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        bytes memory data = _execData(address(settler), p, _hop(b, 0));
        _setWord(data, 3, uint256(uint160(address(staleSettler))));
        vm.expectRevert(abi.encodeWithSelector(IExecutor.SettlerNotActive.selector, address(staleSettler)));
        _aggSwapAs(alice, p, ENTRY_HOLDER, data);
    }

    /// @notice An operator word with dirty upper bits is not the settler, even if its low 20 bytes are.
    function test_holder_dirtyOperatorWord_refused() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        bytes memory data = _execData(address(settler), p, _hop(b, 0));
        _setWord(data, 0, uint256(uint160(address(settler))) | (1 << 200));
        vm.expectRevert(abi.encodeWithSelector(IExecutor.SettlerNotActive.selector, address(settler)));
        _aggSwapAs(alice, p, ENTRY_HOLDER, data);
    }

    function test_holder_bindingMismatches_refused() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        bytes memory good = _execData(address(settler), p, _hop(b, 0));
        bytes[5] memory bad;
        bad[0] = _withWord(good, 1, uint256(uint160(b))); // another token
        bad[1] = _withWord(good, 2, 1e18 - 1); // another amount
        bad[2] = _withWord(good, 2, 1e18 + 1);
        bad[3] = _routerData(p, _hop(b, 0)); // not exec
        bad[4] = _truncated(good, 4 + 4 * 32); // too short to hold exec's head
        for (uint256 i; i < bad.length; ++i) {
            vm.expectRevert(IExecutor.AggregatorBindingMismatch.selector);
            _aggSwapAs(alice, p, ENTRY_HOLDER, bad[i]);
        }
    }

    /// @notice Native input binds as 0xEeee...EEeE, as the firm-quote API writes it; address(0) does not.
    function test_holder_nativeInput_bindsAsEthAddress() public {
        IExecutor.SwapParams memory p = _params(NATIVE, a, 1e18, bob);
        bytes memory data = _withWord(_execData(address(settler), p, _hop(a, 0)), 1, 0);
        vm.expectRevert(IExecutor.AggregatorBindingMismatch.selector);
        _aggSwapAs(alice, p, ENTRY_HOLDER, data);
    }

    /// @notice The third party's revert (here: the firm quote expired) ends as one closed error, its bytes
    ///         never passed on.
    function test_aggregatorRevert_isAggregatorCallFailed() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        IExecutor.SwapParams memory expired = _params(a, b, 1e18, bob);
        expired.deadline = block.timestamp - 1;
        vm.expectRevert(IExecutor.AggregatorCallFailed.selector);
        _aggSwapAs(alice, p, ENTRY_HOLDER, _execData(address(settler), expired, _hop(b, 0)));
        vm.expectRevert(IExecutor.AggregatorCallFailed.selector);
        _aggSwapAs(alice, p, ENTRY_ROUTER, _routerData(expired, _hop(b, 0)));
    }

    // ------------------------------------------------------------------ terms

    function test_terms_checkedAsBySwap() public {
        IExecutor.SwapParams memory p = _params(a, b, 1e18, bob);
        bytes memory data = _routerData(p, _hop(b, 0));
        p.deadline = block.timestamp - 1;
        vm.expectRevert(abi.encodeWithSelector(IExecutor.DeadlineExpired.selector, p.deadline, block.timestamp));
        _aggSwapAs(alice, p, ENTRY_ROUTER, data);

        p = _params(a, b, 1e18, address(executor));
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InvalidRecipient.selector, address(executor)));
        _aggSwapAs(alice, p, ENTRY_ROUTER, data);

        p = _params(a, a, 1e18, bob);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.IdenticalTokens.selector, a));
        _aggSwapAs(alice, p, ENTRY_ROUTER, data);

        p = _params(a, b, 0, bob);
        vm.expectRevert(IExecutor.ZeroAmountIn.selector);
        _aggSwapAs(alice, p, ENTRY_ROUTER, data);

        p = _params(a, b, 1e18, bob);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InvalidNativeValue.selector, 0, 1));
        executor.swapThroughAggregator{value: 1}(p, ENTRY_ROUTER, data);
    }

    function test_feeOnTransferInput_refused() public {
        IExecutor.SwapParams memory p = _params(address(tax), a, 1_000e18, bob);
        vm.expectRevert(
            abi.encodeWithSelector(IExecutor.UnsupportedInputToken.selector, address(tax), 1_000e18, 990e18)
        );
        _aggSwapAs(alice, p, ENTRY_ROUTER, _routerData(p, _hop(a, 0)));
    }

    /// @notice Outside an aggregator's call, ETH from anyone but WETH9 and the PoolManager is refused.
    function test_receive_refusesEthOutsideTheCall() public {
        vm.prank(alice);
        (bool ok,) = address(executor).call{value: 1}("");
        assertFalse(ok, "ETH parked in the executor");
        vm.prank(address(aggRouter));
        (ok,) = address(executor).call{value: 1}("");
        assertFalse(ok, "the router may pay ETH only during its call");
    }

    // ------------------------------------------------------------------ helpers

    /// @dev Overwrites `exec`'s static argument `index` (0 operator, 1 token, 2 amount, 3 target).
    function _setWord(bytes memory data, uint256 index, uint256 word) internal pure {
        uint256 at = 4 + 32 * index;
        assembly ("memory-safe") {
            mstore(add(add(data, 0x20), at), word)
        }
    }

    function _withWord(bytes memory data, uint256 index, uint256 word) internal pure returns (bytes memory copy) {
        copy = bytes.concat(data);
        _setWord(copy, index, word);
    }

    function _truncated(bytes memory data, uint256 length) internal pure returns (bytes memory out) {
        out = new bytes(length);
        for (uint256 i; i < length; ++i) {
            out[i] = data[i];
        }
    }
}
