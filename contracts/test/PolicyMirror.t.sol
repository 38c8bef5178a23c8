// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BuilderRegistry} from "../src/BuilderRegistry.sol";
import {Executor} from "../src/Executor.sol";
import {IBuilderRegistry} from "../src/interfaces/IBuilderRegistry.sol";
import {IPolicyMirror} from "../src/interfaces/IPolicyMirror.sol";
import {PairKey} from "../src/libraries/PairKey.sol";
import {PolicyWords} from "../src/libraries/PolicyWords.sol";
import {RegistryFixture} from "./utils/RegistryFixture.sol";

/// @dev The executor's copy of the registry's fee policy: written only by the registry, in the same call as
///      each change, so the executor charges by exactly what the registry says (`feeTerms` on both), and never
///      without an executor to write to.
contract PolicyMirrorTest is RegistryFixture {
    address internal tokenC = makeAddr("tokenC");
    bytes32 internal otherId;

    function setUp() public override {
        super.setUp();
        vm.prank(stranger);
        otherId = registry.register("other-builder", stranger, 5);
    }

    // ------------------------------------------------------------------ the copy equals the registry

    /// @dev Every pair of the three tokens (and its reverse), for the two builders, no builder and an unknown one,
    ///      read both ways a swap may read them (the policy word first, or the pair's word first); and every
    ///      listed pair's word is the registry's pair under the current policy word, every other pair's zero.
    function _assertCopyMatches() internal view {
        _assertPairWords();
        address[3] memory tokens = [tokenA, tokenB, tokenC];
        bytes32[4] memory builders = [id, otherId, bytes32(0), keccak256("nobody")];
        for (uint256 i; i < tokens.length; ++i) {
            for (uint256 j; j < tokens.length; ++j) {
                if (i == j) continue;
                for (uint256 b; b < builders.length; ++b) {
                    uint256 expected = registry.feeTerms(tokens[i], tokens[j], builders[b]);
                    assertEq(
                        executor.feeTerms(tokens[i], tokens[j], builders[b]),
                        expected,
                        "the executor's copy differs from the registry"
                    );
                    assertEq(
                        executor.pairFirstFeeTerms(tokens[i], tokens[j], builders[b]),
                        expected,
                        "read pair first, the executor's copy differs from the registry"
                    );
                }
            }
        }
    }

    function _assertPairWords() internal view {
        bytes32[] memory listed = registry.feePairs();
        address[3] memory tokens = [tokenA, tokenB, tokenC];
        uint256 policy = executor.policyWord();
        for (uint256 i; i < tokens.length; ++i) {
            for (uint256 j = i + 1; j < tokens.length; ++j) {
                bytes32 key = PairKey.key(tokens[i], tokens[j]);
                (uint16 bps, bool own) = registry.pairRouteFee(tokens[i], tokens[j]);
                assertEq(executor.pairWord(key), PolicyWords.pair(policy, own, bps), "a pair's word");
                bool isListed;
                for (uint256 k; k < listed.length; ++k) {
                    if (listed[k] == key) isListed = true;
                }
                assertEq(isListed, own, "listed exactly while the pair has a fee of its own");
            }
        }
    }

    function test_copyMatches_afterEachKindOfChange() public {
        _assertCopyMatches();
        vm.startPrank(gov);
        registry.setPairRouteFee(tokenA, tokenB, 5);
        _assertCopyMatches();
        registry.setDefaultRouteFee(40);
        _assertCopyMatches();
        registry.setBuilderRouteFee(id, 3);
        _assertCopyMatches();
        registry.setBuilderMaxFee(id, 20);
        _assertCopyMatches();
        registry.setBuilderEnabled(id, false);
        _assertCopyMatches();
        registry.clearPairRouteFee(tokenA, tokenB);
        _assertCopyMatches();
        registry.setBuilderEnabled(id, true);
        registry.clearBuilderRouteFee(id);
        _assertCopyMatches();
        registry.setCommissioned(false);
        _assertCopyMatches();
        registry.setCommissioned(true);
        vm.stopPrank();
        vm.prank(owner);
        registry.setRecipient(id, makeAddr("newWallet"));
        _assertCopyMatches();
        assertEq(address(uint160(executor.feeTerms(tokenA, tokenB, id))), makeAddr("newWallet"));
    }

    /// @dev Any sequence of policy changes, by governance and by a builder's owner, leaves the copy equal. Each
    ///      run is eight changes and 48 comparisons after each, so CI's profile runs it 2,000 times, not 10,000.
    /// forge-config: ci.fuzz.runs = 2000
    function testFuzz_copyMatches_afterAnyChanges(uint256[8] calldata ops) public {
        for (uint256 i; i < ops.length; ++i) {
            _apply(ops[i]);
            _assertCopyMatches();
        }
    }

    function _apply(uint256 op) internal {
        uint16 bps = uint16((op >> 8) % 51);
        bytes32 builder = (op >> 16) % 2 == 0 ? id : otherId;
        (address x, address y) =
            (op >> 24) % 3 == 0 ? (tokenA, tokenB) : (op >> 24) % 3 == 1 ? (tokenB, tokenC) : (tokenC, tokenA);
        uint256 kind = op % 10;
        vm.startPrank(gov);
        if (kind == 0) registry.setDefaultRouteFee(bps);
        else if (kind == 1) registry.setPairRouteFee(x, y, bps);
        else if (kind == 2) registry.clearPairRouteFee(x, y);
        else if (kind == 3) registry.setBuilderMaxFee(builder, bps);
        else if (kind == 4) registry.setBuilderRouteFee(builder, bps);
        else if (kind == 5) registry.clearBuilderRouteFee(builder);
        else if (kind == 6) registry.setBuilderEnabled(builder, (op >> 32) % 2 == 0);
        else if (kind == 7) registry.setCommissioned((op >> 32) % 4 != 0);
        vm.stopPrank();
        if (kind == 8) {
            vm.prank(builder == id ? owner : stranger);
            registry.setRecipient(builder, address(uint160(uint256(keccak256(abi.encode(op))))));
        } else if (kind == 9) {
            uint16 cap = registry.builderById(builder).maxBuilderFeeBps;
            vm.prank(builder == id ? owner : stranger);
            registry.setBuilderFee(builder, uint16(bps % (cap + 1)));
        }
    }

    // ------------------------------------------------------------------ the pair filter

    /// @dev A pair whose key maps to the same filter bit as (tokenA, tokenB).
    function _collidingPair() internal view returns (address x, address y) {
        uint256 bit = PolicyWords.pairBit(PairKey.key(tokenA, tokenB));
        x = tokenC;
        for (uint256 i = 1;; ++i) {
            y = address(uint160(uint256(keccak256(abi.encode("colliding", i)))));
            if (PolicyWords.pairBit(PairKey.key(x, y)) == bit) return (x, y);
        }
    }

    function test_pairFilter_bitStaysWhileAnyPairOnItHasAFee() public {
        (address x, address y) = _collidingPair();
        uint256 bit = PolicyWords.pairBit(PairKey.key(tokenA, tokenB));
        vm.startPrank(gov);
        registry.setPairRouteFee(tokenA, tokenB, 5);
        registry.setPairRouteFee(x, y, 7);
        registry.setPairRouteFee(x, y, 9); // set again: counted once
        assertTrue(PolicyWords.mayHavePairFee(executor.policyWord(), PairKey.key(tokenA, tokenB)));
        registry.clearPairRouteFee(tokenA, tokenB);
        registry.clearPairRouteFee(tokenA, tokenB); // cleared again: counted once
        assertTrue(PolicyWords.mayHavePairFee(executor.policyWord(), PairKey.key(x, y)), "the other pair's bit");
        assertEq(executor.feeTerms(x, y, bytes32(0)) >> 240, 9);
        assertEq(executor.feeTerms(tokenA, tokenB, bytes32(0)) >> 240, 25, "the default again");
        registry.clearPairRouteFee(y, x);
        vm.stopPrank();
        assertEq((executor.policyWord() >> (128 + bit)) & 1, 0, "no pair left on the bit");
        assertEq(executor.feeTerms(x, y, bytes32(0)) >> 240, 25);
    }

    /// @dev A pair whose bit is set by another pair's fee reads its own (empty) word: the default applies.
    function test_pairFilter_falsePositive_readsTheDefault() public {
        (address x, address y) = _collidingPair();
        vm.prank(gov);
        registry.setPairRouteFee(x, y, 7);
        assertTrue(PolicyWords.mayHavePairFee(executor.policyWord(), PairKey.key(tokenA, tokenB)));
        assertEq(executor.feeTerms(tokenA, tokenB, bytes32(0)) >> 240, 25);
        assertEq(executor.feeTerms(tokenA, tokenB, bytes32(0)), registry.feeTerms(tokenA, tokenB, bytes32(0)));
    }

    // ------------------------------------------------------------------ the pairs with a fee of their own

    /// @dev Up to `MAX_PAIR_FEES` pairs may have a fee of their own; setting one of them again, or clearing one,
    ///      frees or takes no extra place, and each change to the policy word rewrites every one's word.
    function test_pairFees_boundedList_rewrittenWithThePolicy() public {
        uint256 max = registry.MAX_PAIR_FEES();
        vm.startPrank(gov);
        for (uint256 i; i < max; ++i) {
            registry.setPairRouteFee(tokenC, address(uint160(0x1000 + i)), uint16(i % 51));
        }
        registry.setPairRouteFee(tokenC, address(uint160(0x1000)), 50); // set again: no new place
        vm.expectRevert(abi.encodeWithSelector(IBuilderRegistry.TooManyPairFees.selector, max));
        registry.setPairRouteFee(tokenA, tokenB, 5);
        registry.clearPairRouteFee(tokenC, address(uint160(0x1000 + 7)));
        registry.setPairRouteFee(tokenA, tokenB, 5);
        registry.setDefaultRouteFee(40);
        registry.setCommissioned(false);
        vm.stopPrank();
        bytes32[] memory listed = registry.feePairs();
        assertEq(listed.length, max);
        uint256 policy = executor.policyWord();
        for (uint256 k; k < listed.length; ++k) {
            uint256 word = executor.pairWord(listed[k]);
            assertEq(word & PolicyWords.PAIR_COPIED_MASK, policy & PolicyWords.PAIR_COPIED_MASK, "rewritten");
            assertTrue(word & PolicyWords.PAIR_SET != 0);
        }
        assertEq(executor.pairWord(PairKey.key(tokenC, address(uint160(0x1000 + 7)))), 0, "cleared");
        assertEq((executor.pairWord(PairKey.key(tokenC, address(uint160(0x1000)))) >> 56) & 0xffff, 50);
        assertEq(executor.pairFirstFeeTerms(tokenA, tokenB, bytes32(0)), registry.feeTerms(tokenA, tokenB, bytes32(0)));
        assertEq(executor.pairFirstFeeTerms(tokenA, tokenB, bytes32(0)) >> 240, 0, "uncommissioned: nothing");
    }

    /// @dev A swap that says its pair has a fee of its own when it has none reads the policy word after the
    ///      pair's empty word: the default applies.
    function test_pairFirst_withoutAFeeOfItsOwn_readsTheDefault() public view {
        assertEq(executor.pairWord(PairKey.key(tokenB, tokenC)), 0);
        assertEq(executor.pairFirstFeeTerms(tokenB, tokenC, id), registry.feeTerms(tokenB, tokenC, id));
        assertEq(executor.pairFirstFeeTerms(tokenB, tokenC, bytes32(0)) >> 240, 25);
    }

    // ------------------------------------------------------------------ who writes the copy, and when

    function test_revert_sync_fromAnyoneButTheRegistry() public {
        bytes memory expected = abi.encodeWithSelector(IPolicyMirror.NotRegistry.selector, gov);
        vm.startPrank(gov);
        vm.expectRevert(expected);
        executor.syncPolicy(0);
        vm.expectRevert(expected);
        executor.syncBuilder(id, 0);
        vm.expectRevert(expected);
        executor.syncPairFee(PairKey.key(tokenA, tokenB), 0);
        vm.stopPrank();
    }

    function test_setExecutor_once_byGovernance() public {
        Executor other = _newExecutor(registry);
        _expectRevertFrom(
            stranger,
            abi.encodeCall(registry.setExecutor, (other)),
            abi.encodeWithSelector(IBuilderRegistry.NotGovernance.selector, stranger)
        );
        _expectRevertFrom(
            gov,
            abi.encodeCall(registry.setExecutor, (other)),
            abi.encodeWithSelector(IBuilderRegistry.ExecutorAlreadySet.selector, address(executor))
        );
        assertEq(address(registry.executor()), address(executor));
        assertEq(other.policyWord(), 0, "an executor the registry never named charges nothing");
        assertEq(other.feeTerms(tokenA, tokenB, id), 0);
    }

    /// @dev Before governance names the executor, nothing that needs a copied word can be recorded; what the
    ///      configuration says before then is written when it is named.
    function test_beforeTheExecutorIsNamed_noRecords_thenTheConfigurationIsWritten() public {
        BuilderRegistry fresh = new BuilderRegistry(gov, treasury, 25, 50);
        vm.expectRevert(IBuilderRegistry.ExecutorNotSet.selector);
        vm.prank(owner);
        fresh.register("too-early", wallet, 0);
        vm.startPrank(gov);
        vm.expectRevert(IBuilderRegistry.ExecutorNotSet.selector);
        fresh.setPairRouteFee(tokenA, tokenB, 5);
        fresh.setCommissioned(true);
        fresh.setDefaultRouteFee(30);
        Executor named = _newExecutor(fresh);
        vm.expectRevert(IBuilderRegistry.ZeroAddress.selector);
        fresh.setExecutor(IPolicyMirror(address(0)));
        vm.expectEmit(address(fresh));
        emit IBuilderRegistry.ExecutorSet(address(named));
        fresh.setExecutor(named);
        vm.stopPrank();
        assertEq(named.feeTerms(tokenA, tokenB, bytes32(0)), fresh.feeTerms(tokenA, tokenB, bytes32(0)));
        assertEq(named.feeTerms(tokenA, tokenB, bytes32(0)) >> 240, 30);
    }

    /// @dev The registry writes through only to an executor that names it: another registry's executor
    ///      refuses the write, so governance cannot name it.
    function test_revert_setExecutor_ofAnotherRegistry() public {
        BuilderRegistry fresh = new BuilderRegistry(gov, treasury, 25, 50);
        vm.expectRevert(abi.encodeWithSelector(IPolicyMirror.NotRegistry.selector, address(fresh)));
        vm.prank(gov);
        fresh.setExecutor(executor);
    }
}
