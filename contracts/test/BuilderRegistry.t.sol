// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {BuilderRegistry} from "../src/BuilderRegistry.sol";
import {IBuilderRegistry} from "../src/interfaces/IBuilderRegistry.sol";

contract BuilderRegistryTest is Test {
    BuilderRegistry internal registry;
    address internal gov = makeAddr("governance");
    address internal treasury = makeAddr("treasury");
    address internal owner = makeAddr("owner");
    address internal wallet = makeAddr("wallet");
    address internal stranger = makeAddr("stranger");
    address internal tokenA = makeAddr("tokenA");
    address internal tokenB = makeAddr("tokenB");
    bytes32 internal id;

    function setUp() public {
        registry = new BuilderRegistry(gov, treasury, 25, 50);
        vm.prank(gov);
        registry.setCommissioned(true);
        vm.prank(owner);
        id = registry.register("junction-demo", wallet, 10);
    }

    // ------------------------------------------------------------------ construction

    function test_constructor_setsEverything() public view {
        assertEq(registry.governance(), gov);
        assertEq(registry.treasury(), treasury);
        assertEq(registry.defaultRouteFeeBps(), 25);
        assertEq(registry.defaultMaxBuilderFeeBps(), 50);
        assertEq(registry.policyVersion(), 1);
        assertTrue(registry.commissioned());
    }

    function test_constructor_startsUncommissioned() public {
        BuilderRegistry fresh = new BuilderRegistry(gov, treasury, 25, 50);
        assertFalse(fresh.commissioned());
        IBuilderRegistry.FeePolicy memory policy = fresh.feePolicy(tokenA, tokenB, bytes32(0));
        assertEq(policy.routeFeeBps, 0);
    }

    function test_revert_constructor_zeroGovernance() public {
        vm.expectRevert(IBuilderRegistry.ZeroAddress.selector);
        new BuilderRegistry(address(0), treasury, 25, 50);
    }

    function test_revert_constructor_zeroTreasury() public {
        vm.expectRevert(IBuilderRegistry.ZeroAddress.selector);
        new BuilderRegistry(gov, address(0), 25, 50);
    }

    function test_revert_constructor_routeFeeAboveCap() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, 51, 50));
        new BuilderRegistry(gov, treasury, 51, 50);
    }

    function test_revert_constructor_maxBuilderFeeAboveCap() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, 51, 50));
        new BuilderRegistry(gov, treasury, 25, 51);
    }

    // ------------------------------------------------------------------ registration

    function test_register_profile() public view {
        IBuilderRegistry.BuilderProfile memory p = registry.builderByCode("junction-demo");
        assertEq(p.code, "junction-demo");
        assertEq(p.owner, owner);
        assertEq(p.pendingOwner, address(0));
        assertEq(p.recipient, wallet);
        assertEq(p.builderFeeBps, 10);
        assertEq(p.maxBuilderFeeBps, 50);
        assertFalse(p.hasRouteFeeOverride);
        assertTrue(p.enabled);
        assertEq(p.version, 1);
        assertEq(id, keccak256("junction-demo"));
        assertEq(registry.builderById(id).code, "junction-demo");
        assertTrue(registry.isRegistered(id));
        assertEq(registry.builderIdOf("junction-demo"), id);
    }

    function test_register_emits() public {
        vm.expectEmit(address(registry));
        emit IBuilderRegistry.BuilderRegistered(keccak256("My_App-2"), "My_App-2", stranger, wallet, 5, 50);
        vm.prank(stranger);
        registry.register("My_App-2", wallet, 5);
    }

    function test_register_isCaseSensitive() public {
        vm.prank(stranger);
        bytes32 other = registry.register("Junction-Demo", wallet, 0);
        assertTrue(other != id);
        assertEq(registry.builderById(other).owner, stranger);
        assertEq(registry.builderById(id).owner, owner);
    }

    function test_revert_register_taken() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.BuilderAlreadyRegistered.selector, id));
        vm.prank(stranger);
        registry.register("junction-demo", stranger, 0);
    }

    function test_revert_register_tooShort() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.InvalidBuilderCode.selector, "ab"));
        registry.register("ab", wallet, 0);
    }

    function test_revert_register_tooLong() public {
        string memory code = "abcdefghijklmnopqrstuvwxyz0123456"; // 33
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.InvalidBuilderCode.selector, code));
        registry.register(code, wallet, 0);
    }

    function test_register_exactlyThirtyTwo() public {
        registry.register("abcdefghijklmnopqrstuvwxyz012345", wallet, 0);
    }

    function test_revert_register_badCharacter() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.InvalidBuilderCode.selector, "has space"));
        registry.register("has space", wallet, 0);
    }

    function test_revert_register_zeroRecipient() public {
        vm.expectRevert(IBuilderRegistry.ZeroAddress.selector);
        registry.register("no-wallet", address(0), 0);
    }

    function test_revert_register_feeAboveDefaultMax() public {
        vm.prank(gov);
        registry.setDefaultMaxBuilderFee(20);
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, 21, 20));
        registry.register("greedy", wallet, 21);
    }

    function test_revert_builderIdOf_invalid() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.InvalidBuilderCode.selector, "a.b"));
        registry.builderIdOf("a.b");
    }

    function test_revert_views_unknownBuilder() public {
        bytes32 unknown = keccak256("unknown");
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.UnknownBuilder.selector, unknown));
        registry.builderById(unknown);
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.UnknownBuilder.selector, unknown));
        registry.builderByCode("unknown");
        assertFalse(registry.isRegistered(unknown));
    }

    // ------------------------------------------------------------------ owner actions

    function test_setRecipient_bumpsVersion() public {
        address next = makeAddr("next");
        vm.expectEmit(address(registry));
        emit IBuilderRegistry.BuilderRecipientSet(id, next, 2);
        vm.prank(owner);
        registry.setRecipient(id, next);
        assertEq(registry.builderById(id).recipient, next);
        assertEq(registry.builderById(id).version, 2);
    }

    function test_revert_setRecipient_notOwner() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotBuilderOwner.selector, id, stranger));
        vm.prank(stranger);
        registry.setRecipient(id, stranger);
    }

    function test_revert_setRecipient_zero() public {
        vm.expectRevert(IBuilderRegistry.ZeroAddress.selector);
        vm.prank(owner);
        registry.setRecipient(id, address(0));
    }

    function test_setBuilderFee_bumpsVersion() public {
        vm.prank(owner);
        registry.setBuilderFee(id, 50);
        assertEq(registry.builderById(id).builderFeeBps, 50);
        assertEq(registry.builderById(id).version, 2);
    }

    function test_revert_setBuilderFee_aboveMax() public {
        vm.prank(gov);
        registry.setBuilderMaxFee(id, 30);
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, 31, 30));
        vm.prank(owner);
        registry.setBuilderFee(id, 31);
    }

    function test_revert_setBuilderFee_notOwner() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotBuilderOwner.selector, id, gov));
        vm.prank(gov);
        registry.setBuilderFee(id, 1);
    }

    function test_ownership_twoStep() public {
        address next = makeAddr("next");
        vm.prank(owner);
        registry.transferOwnership(id, next);
        assertEq(registry.builderById(id).pendingOwner, next);
        assertEq(registry.builderById(id).owner, owner);
        vm.expectEmit(address(registry));
        emit IBuilderRegistry.BuilderOwnershipTransferred(id, owner, next, 3);
        vm.prank(next);
        registry.acceptOwnership(id);
        IBuilderRegistry.BuilderProfile memory p = registry.builderById(id);
        assertEq(p.owner, next);
        assertEq(p.pendingOwner, address(0));
        assertEq(p.version, 3);
    }

    function test_ownership_cancel() public {
        vm.startPrank(owner);
        registry.transferOwnership(id, stranger);
        registry.transferOwnership(id, address(0));
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotPendingBuilderOwner.selector, id, stranger));
        vm.prank(stranger);
        registry.acceptOwnership(id);
    }

    function test_revert_transferOwnership_notOwner() public {
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotBuilderOwner.selector, id, stranger));
        vm.prank(stranger);
        registry.transferOwnership(id, stranger);
    }

    function test_revert_acceptOwnership_notPending() public {
        vm.prank(owner);
        registry.transferOwnership(id, makeAddr("next"));
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotPendingBuilderOwner.selector, id, stranger));
        vm.prank(stranger);
        registry.acceptOwnership(id);
    }

    function test_revert_acceptOwnership_unknownBuilderFromZero() public {
        // An unregistered id has pendingOwner 0, which no caller can be.
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.NotPendingBuilderOwner.selector, keccak256("x"), stranger));
        vm.prank(stranger);
        registry.acceptOwnership(keccak256("x"));
    }

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
        for (uint256 i; i < calls.length; ++i) {
            vm.prank(owner);
            (bool ok, bytes memory err) = address(registry).call(calls[i]);
            assertFalse(ok);
            assertEq(err, abi.encodeWithSelector(IBuilderRegistry.NotGovernance.selector, owner));
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
        for (uint256 i; i < calls.length; ++i) {
            vm.prank(gov);
            (bool ok, bytes memory err) = address(registry).call(calls[i]);
            assertFalse(ok);
            assertEq(err, abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, 51, 50));
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
        for (uint256 i; i < calls.length; ++i) {
            vm.prank(gov);
            (bool ok, bytes memory err) = address(registry).call(calls[i]);
            assertFalse(ok);
            assertEq(err, abi.encodeWithSelector(IBuilderRegistry.UnknownBuilder.selector, unknown));
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

    // ------------------------------------------------------------------ fuzz

    /// @dev Reference implementation of `^[A-Za-z0-9_-]{3,32}$`.
    function _matches(bytes memory code) private pure returns (bool) {
        if (code.length < 3 || code.length > 32) return false;
        bytes memory alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
        for (uint256 i; i < code.length; ++i) {
            bool found;
            for (uint256 j; j < alphabet.length; ++j) {
                if (code[i] == alphabet[j]) found = true;
            }
            if (!found) return false;
        }
        return true;
    }

    function test_fuzz_builderCode_validationMatchesPattern(bytes memory raw) public {
        vm.assume(raw.length <= 40);
        string memory code = string(raw);
        bool valid = _matches(raw);
        vm.prank(stranger);
        (bool ok, bytes memory ret) =
            address(registry).call(abi.encodeCall(registry.register, (code, wallet, 0)));
        if (keccak256(raw) == id) return; // the code setUp registered
        assertEq(ok, valid);
        if (ok) {
            assertEq(abi.decode(ret, (bytes32)), keccak256(raw));
            assertEq(registry.builderById(keccak256(raw)).code, code);
        } else {
            assertEq(ret, abi.encodeWithSelector(IBuilderRegistry.InvalidBuilderCode.selector, code));
        }
    }

    function test_fuzz_builderCode_alphabetCodesAlwaysValid(uint256 seed, uint8 length) public {
        length = uint8(bound(length, 3, 32));
        bytes memory alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
        bytes memory code = new bytes(length);
        for (uint256 i; i < length; ++i) {
            code[i] = alphabet[uint256(keccak256(abi.encode(seed, i))) % alphabet.length];
        }
        if (keccak256(code) == id) return;
        vm.prank(stranger);
        assertEq(registry.register(string(code), wallet, 0), keccak256(code));
    }

    function test_fuzz_feeSetters_neverAboveFifty(uint16 bps) public {
        vm.startPrank(gov);
        if (bps > 50) vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, bps, 50));
        registry.setDefaultRouteFee(bps);
        if (bps > 50) vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, bps, 50));
        registry.setPairRouteFee(tokenA, tokenB, bps);
        if (bps > 50) vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, bps, 50));
        registry.setBuilderMaxFee(id, bps);
        if (bps > 50) vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.FeeAboveCap.selector, bps, 50));
        registry.setBuilderRouteFee(id, bps);
        vm.stopPrank();
        IBuilderRegistry.FeePolicy memory p = registry.feePolicy(tokenA, tokenB, id);
        assertLe(p.routeFeeBps, 50);
        assertLe(p.builderFeeCapBps, 50);
    }

    function test_fuzz_versionBumpsOnEveryBuilderChange(uint8 changes) public {
        changes = uint8(bound(changes, 1, 20));
        for (uint256 i; i < changes; ++i) {
            uint32 before = registry.builderById(id).version;
            if (i % 3 == 0) {
                vm.prank(owner);
                registry.setBuilderFee(id, uint16(i % 50));
            } else if (i % 3 == 1) {
                vm.prank(gov);
                registry.setBuilderEnabled(id, i % 2 == 0);
            } else {
                vm.prank(owner);
                registry.setRecipient(id, address(uint160(i + 1)));
            }
            assertEq(registry.builderById(id).version, before + 1);
        }
    }
}
