// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title PolicyWords
/// @notice The packed words the registry's fee policy travels in: what the registry writes to the executor's
///         mirror (`IPolicyMirror`) and what both compute a swap's fee terms from.
/// @dev Three words:
///      - the policy word: policy version (bits 0..55), the schedule's default service fee (56..71), the
///        commissioned flag (72..79), and a 128-bit filter of the pairs with a fee of their own (128..255:
///        bit `pairBit(key)` is set while any pair whose key maps to it has one), so a swap reads a pair's
///        word only when its pair may have one;
///      - a builder's word: the registry's `Builder` first slot (payout wallet in bits 0..159, max builder
///        fee 176..191, service fee override 192..207 and its flag 208..215, enabled 216..223);
///      - a pair's word, for a pair with a fee of its own (zero for any other): the policy word's version and
///        commissioned flag with the pair's fee in the default's place (56..71), no filter, and bit 80 set. It
///        stands for the policy word when a swap says its pair has a fee of its own, so such a swap reads two
///        words too (the registry rewrites every pair's word with each change to the policy word).
///      The terms (`IBuilderRegistry.feeTerms`): service fee in bits 240..255, the builder's fee cap in
///      224..239, the policy version in 160..223 and the builder's payout wallet in 0..159.
library PolicyWords {
    uint256 internal constant POLICY_VERSION_MASK = (1 << 56) - 1;
    uint256 internal constant POLICY_DEFAULT_ROUTE_FEE_SHIFT = 56;
    uint256 internal constant POLICY_COMMISSIONED_SHIFT = 72;
    uint256 internal constant POLICY_PAIR_FILTER_SHIFT = 128;
    /// @dev A pair's word: the policy word's bits a pair's word copies (version and commissioned flag), and
    ///      the bit that marks it set.
    uint256 internal constant PAIR_COPIED_MASK = 0xff0000ffffffffffffff; // bits 0..55 and 72..79
    uint256 internal constant PAIR_SET = 0x100000000000000000000; // 1 << 80

    uint256 internal constant RECIPIENT_MASK = (1 << 160) - 1;
    uint256 internal constant BUILDER_MAX_FEE_SHIFT = 176;
    uint256 internal constant BUILDER_ROUTE_FEE_SHIFT = 192;
    uint256 internal constant BUILDER_HAS_ROUTE_FEE_SHIFT = 208;
    uint256 internal constant BUILDER_ENABLED_SHIFT = 216;

    /// @notice The policy word of the given fields and pair filter.
    function policy(bool commissioned, uint16 defaultRouteFeeBps, uint56 policyVersion, uint128 pairFilter)
        internal
        pure
        returns (uint256)
    {
        return uint256(policyVersion) | (uint256(defaultRouteFeeBps) << POLICY_DEFAULT_ROUTE_FEE_SHIFT)
            | (uint256(commissioned ? 1 : 0) << POLICY_COMMISSIONED_SHIFT)
            | (uint256(pairFilter) << POLICY_PAIR_FILTER_SHIFT);
    }

    /// @notice The bit of the pair filter (within its 128 bits) that a pair's key maps to.
    function pairBit(bytes32 pairKey) internal pure returns (uint256) {
        return uint256(pairKey) & 127;
    }

    /// @notice Whether the pair filter of `policyWord` says the pair may have a fee of its own.
    function mayHavePairFee(uint256 policyWord, bytes32 pairKey) internal pure returns (bool) {
        return (policyWord >> (POLICY_PAIR_FILTER_SHIFT + pairBit(pairKey))) & 1 != 0;
    }

    /// @notice The word of a pair whose own fee is `bps` (`set`), under `policyWord`; zero when not `set`.
    function pair(uint256 policyWord, bool set, uint16 bps) internal pure returns (uint256) {
        if (!set) return 0;
        return (policyWord & PAIR_COPIED_MASK) | (uint256(bps) << POLICY_DEFAULT_ROUTE_FEE_SHIFT)
            | PAIR_SET;
    }

    /// @notice The schedule's fee from the pair's word: its own when set, else the default.
    function scheduleFee(uint256 policyWord, uint256 pairWord) internal pure returns (uint256) {
        return ((pairWord != 0 ? pairWord : policyWord) >> POLICY_DEFAULT_ROUTE_FEE_SHIFT) & 0xffff;
    }

    /// @notice A swap's terms from the policy and builder words, except the schedule's fee: `fromSchedule`
    ///         says the service fee is the schedule's for the pair (the caller adds it with `withRouteFee`).
    ///         Uncommissioned, nothing is charged; an unknown or suspended builder is never paid and its
    ///         override does not apply.
    function terms(uint256 policyWord, uint256 builderWord, bool routeFeeWanted)
        internal
        pure
        returns (uint256 t, bool fromSchedule)
    {
        t = (policyWord & POLICY_VERSION_MASK) << 160;
        if ((policyWord >> POLICY_COMMISSIONED_SHIFT) & 0xff == 0) return (t, false);
        bool builderPaid = (builderWord >> BUILDER_ENABLED_SHIFT) & 0xff != 0;
        if (routeFeeWanted) {
            if (builderPaid && (builderWord >> BUILDER_HAS_ROUTE_FEE_SHIFT) & 0xff != 0) {
                t = withRouteFee(t, (builderWord >> BUILDER_ROUTE_FEE_SHIFT) & 0xffff);
            } else {
                fromSchedule = true;
            }
        }
        if (builderPaid) {
            t |= (((builderWord >> BUILDER_MAX_FEE_SHIFT) & 0xffff) << 224) | (builderWord & RECIPIENT_MASK);
        }
    }

    /// @notice `t` with its service fee bits set to `bps`.
    function withRouteFee(uint256 t, uint256 bps) internal pure returns (uint256) {
        return t | (bps << 240);
    }
}
