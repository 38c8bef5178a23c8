// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBuilderRegistry} from "../src/interfaces/IBuilderRegistry.sol";
import {RegistryFixture} from "./utils/RegistryFixture.sol";

/// @dev Governance (its handover, its setters and their caps) and the fee policy the executor reads.
contract BuilderRegistryGovernanceTest is RegistryFixture {
    // ------------------------------------------------------------------ governance

    function test_governance_twoStep() public {
        address next = makeAddr("nextGov");
        vm.prank(gov);
        registry.transferGovernance(next);
        assertEq(registry.pendingGovernance(), next);
        vm.prank(next);
        registry.acceptGovernance();
        assertEq(registry.governance(), next);
        assertEq(registry.pendingGovernance(), address(0));
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotGovernance.selector, gov));
        vm.prank(gov);
        registry.setCommissioned(false);
    }

    function test_revert_acceptGovernance_notPending() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotPendingGovernance.selector, stranger));
        vm.prank(stranger);
        registry.acceptGovernance();
    }

    function test_revert_governanceOnly_fromBuilderOwner() public {
        bytes[11] memory calls = [
            abi.encodeCall(registry.transferGovernance, (owner)),
            abi.encodeCall(registry.setCommissioned, (false)),
            abi.encodeCall(registry.setTreasury, (owner)),
            abi.encodeCall(registry.setDefaultRouteFee, (1)),
            abi.encodeCall(registry.setPairRouteFee, (tokenA, tokenB, 1)),
            abi.encodeCall(registry.clearPairRouteFee, (tokenA, tokenB)),
            abi.encodeCall(registry.setDefaultMaxBuilderFee, (1)),
            abi.encodeCall(registry.setBuilderMaxFee, (id, 50)),
            abi.encodeCall(registry.setBuilderRouteFee, (id, 0)),
            abi.encodeCall(registry.clearBuilderRouteFee, (id)),
            abi.encodeCall(registry.setBuilderEnabled, (id, false))
        ];
        bytes memory expected = abi.encodeWithSelector(IBuilderRegistry.NotGovernance.selector, owner);
        for (uint256 i; i < calls.length; ++i) {
            _expectRevertFrom(owner, calls[i], expected);
        }
    }

    function test_revert_governanceFeeSetters_aboveFifty() public {
        bytes[5] memory calls = [
            abi.encodeCall(registry.setDefaultRouteFee, (51)),
            abi.encodeCall(registry.setPairRouteFee, (tokenA, tokenB, 51)),
            abi.encodeCall(registry.setDefaultMaxBuilderFee, (51)),
            abi.encodeCall(registry.setBuilderMaxFee, (id, 51)),
            abi.encodeCall(registry.setBuilderRouteFee, (id, 51))
        ];
        bytes memory expected = abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, 51, 50);
        for (uint256 i; i < calls.length; ++i) {
            _expectRevertFrom(gov, calls[i], expected);
        }
    }

    function test_revert_governanceBuilderActions_unknownBuilder() public {
        bytes32 unknown = keccak256("unknown");
        bytes[4] memory calls = [
            abi.encodeCall(registry.setBuilderMaxFee, (unknown, 5)),
            abi.encodeCall(registry.setBuilderRouteFee, (unknown, 5)),
            abi.encodeCall(registry.clearBuilderRouteFee, (unknown)),
            abi.encodeCall(registry.setBuilderEnabled, (unknown, true))
        ];
        bytes memory expected = abi.encodeWithSelector(IBuilderRegistry.UnknownBuilder.selector, unknown);
        for (uint256 i; i < calls.length; ++i) {
            _expectRevertFrom(gov, calls[i], expected);
        }
    }

    function test_revert_setTreasury_zero() public {
        vm.expectRevert(IBuilderRegistry.ZeroAddress.selector);
        vm.prank(gov);
        registry.setTreasury(address(0));
    }

    function test_revert_setPairRouteFee_identicalTokens() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.IdenticalTokens.selector, tokenA));
        vm.prank(gov);
        registry.setPairRouteFee(tokenA, tokenA, 5);
    }

    function test_schedule_pairOverride_unordered_bumpsPolicyVersion() public {
        (address t0, address t1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        vm.expectEmit(address(registry));
        emit IBuilderRegistry.PairRouteFeeSet(t0, t1, 5, 2);
        vm.prank(gov);
        registry.setPairRouteFee(tokenB, tokenA, 5);
        (uint16 ab, uint64 v) = registry.routeFeeBps(tokenA, tokenB, bytes32(0));
        (uint16 ba,) = registry.routeFeeBps(tokenB, tokenA, bytes32(0));
        assertEq(ab, 5);
        assertEq(ba, 5);
        assertEq(v, 2);
        (uint16 other,) = registry.routeFeeBps(tokenA, stranger, bytes32(0));
        assertEq(other, 25);
        vm.prank(gov);
        registry.clearPairRouteFee(tokenA, tokenB);
        (ab, v) = registry.routeFeeBps(tokenA, tokenB, bytes32(0));
        assertEq(ab, 25);
        assertEq(v, 3);
        vm.prank(gov);
        registry.setDefaultRouteFee(30);
        assertEq(registry.policyVersion(), 4);
    }

    function test_setBuilderMaxFee_clampsDefaultFee() public {
        vm.prank(owner);
        registry.setBuilderFee(id, 40);
        vm.expectEmit(address(registry));
        emit IBuilderRegistry.BuilderMaxFeeSet(id, 15, 15, 3);
        vm.prank(gov);
        registry.setBuilderMaxFee(id, 15);
        IBuilderRegistry.BuilderProfile memory p = registry.builderById(id);
        assertEq(p.maxBuilderFeeBps, 15);
        assertEq(p.builderFeeBps, 15);
    }

    function test_feePolicy_enabledBuilder() public view {
        IBuilderRegistry.FeePolicy memory p = registry.feePolicy(tokenA, tokenB, id);
        assertEq(p.routeFeeBps, 25);
        assertEq(p.builderFeeCapBps, 50);
        assertEq(p.builderRecipient, wallet);
        assertEq(p.treasury, treasury);
        assertEq(p.policyVersion, 1);
    }

    function test_feePolicy_suspendedBuilder_notPaid_overrideIgnored_profileReadable() public {
        vm.startPrank(gov);
        registry.setBuilderRouteFee(id, 3);
        registry.setBuilderEnabled(id, false);
        vm.stopPrank();
        IBuilderRegistry.FeePolicy memory p = registry.feePolicy(tokenA, tokenB, id);
        assertEq(p.builderFeeCapBps, 0);
        assertEq(p.builderRecipient, address(0));
        assertEq(p.routeFeeBps, 25);
        IBuilderRegistry.BuilderProfile memory profile = registry.builderByCode("junction-demo");
        assertFalse(profile.enabled);
        assertEq(profile.version, 3);
        vm.prank(gov);
        registry.setBuilderEnabled(id, true);
        assertEq(registry.feePolicy(tokenA, tokenB, id).routeFeeBps, 3);
        assertEq(registry.feePolicy(tokenA, tokenB, id).builderFeeCapBps, 50);
    }

    /// @dev `recordPolicy` names what `feePolicy` names, in every builder state, commissioned or not.
    function test_recordPolicy_matchesFeePolicy() public {
        bytes32[3] memory builders = [id, keccak256("nobody"), bytes32(0)];
        for (uint256 round; round < 3; ++round) {
            vm.startPrank(gov);
            if (round == 1) registry.setBuilderEnabled(id, false);
            if (round == 2) registry.setCommissioned(false);
            vm.stopPrank();
            for (uint256 i; i < builders.length; ++i) {
                IBuilderRegistry.FeePolicy memory full = registry.feePolicy(tokenA, tokenB, builders[i]);
                (address recipient, uint64 version) = registry.recordPolicy(builders[i]);
                assertEq(recipient, full.builderRecipient);
                assertEq(version, full.policyVersion);
            }
        }
        (address enabledRecipient,) = registry.recordPolicy(id);
        assertEq(enabledRecipient, address(0), "suspended, then uncommissioned");
    }

    /// @dev `feeTerms` packs exactly what `feePolicy` says (less the treasury), for an enabled, suspended,
    ///      unknown and absent builder, with a route fee override, on a pair with and without its own fee,
    ///      commissioned or not.
    function test_feeTerms_matchesFeePolicy() public {
        bytes32[3] memory builders = [id, keccak256("nobody"), bytes32(0)];
        address[2] memory others = [tokenB, makeAddr("another token")];
        vm.startPrank(gov);
        registry.setPairRouteFee(tokenA, tokenB, 7);
        registry.setBuilderRouteFee(id, 3);
        vm.stopPrank();
        for (uint256 round; round < 3; ++round) {
            vm.startPrank(gov);
            if (round == 1) registry.setBuilderEnabled(id, false);
            if (round == 2) registry.setCommissioned(false);
            vm.stopPrank();
            for (uint256 i; i < builders.length; ++i) {
                for (uint256 j; j < others.length; ++j) {
                    IBuilderRegistry.FeePolicy memory full = registry.feePolicy(tokenA, others[j], builders[i]);
                    uint256 terms = registry.feeTerms(tokenA, others[j], builders[i]);
                    assertEq(terms >> 240, full.routeFeeBps, "route fee");
                    assertEq((terms >> 224) & 0xffff, full.builderFeeCapBps, "builder cap");
                    assertEq((terms >> 160) & type(uint64).max, full.policyVersion, "policy version");
                    assertEq(address(uint160(terms)), full.builderRecipient, "builder recipient");
                    // Without the service fee: the same word, its service fee bits zero.
                    assertEq(registry.builderTerms(builders[i]), terms & ((1 << 240) - 1), "builder terms");
                }
            }
        }
    }

    function test_feePolicy_unknownAndZeroBuilder_notPaid() public view {
        assertEq(registry.feePolicy(tokenA, tokenB, keccak256("nobody")).builderFeeCapBps, 0);
        assertEq(registry.feePolicy(tokenA, tokenB, bytes32(0)).builderFeeCapBps, 0);
        assertEq(registry.feePolicy(tokenA, tokenB, bytes32(0)).builderRecipient, address(0));
    }

    function test_feePolicy_uncommissioned_chargesNothing() public {
        vm.prank(gov);
        registry.setCommissioned(false);
        IBuilderRegistry.FeePolicy memory p = registry.feePolicy(tokenA, tokenB, id);
        assertEq(p.routeFeeBps, 0);
        assertEq(p.builderFeeCapBps, 0);
        assertEq(p.treasury, treasury);
    }

    function test_clearBuilderRouteFee() public {
        vm.startPrank(gov);
        registry.setBuilderRouteFee(id, 0);
        assertEq(registry.feePolicy(tokenA, tokenB, id).routeFeeBps, 0);
        registry.clearBuilderRouteFee(id);
        vm.stopPrank();
        assertEq(registry.feePolicy(tokenA, tokenB, id).routeFeeBps, 25);
        assertFalse(registry.builderById(id).hasRouteFeeOverride);
        assertEq(registry.builderById(id).version, 3);
    }
}
