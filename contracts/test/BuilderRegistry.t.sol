// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BuilderRegistry} from "../src/BuilderRegistry.sol";
import {IBuilderRegistry} from "../src/interfaces/IBuilderRegistry.sol";
import {RegistryFixture} from "./utils/RegistryFixture.sol";

/// @dev Construction, registration, the builder owner's actions and fuzzing; governance and the fee
///      policy the executor reads are in BuilderRegistryGovernance.t.sol.
contract BuilderRegistryTest is RegistryFixture {
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
