// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title IPolicyMirror
/// @notice The executor's copy of the registry's fee policy: the words a swap charges by (`PolicyWords`), so a
///         swap reads them from its own storage instead of calling the registry. Only the registry writes
///         them, in the same call that changes what they copy, so the copy equals the registry's policy at
///         every block (`feeTerms` answers exactly as `IBuilderRegistry.feeTerms`).
interface IPolicyMirror {
    /// @notice A write from anyone but the registry.
    error NotRegistry(address caller);

    /// @notice The registry's policy word changed (the schedule's default, its version, the commissioned
    ///         flag or the filter of pairs with a fee of their own).
    function syncPolicy(uint256 policyWord) external;

    /// @notice A builder's word changed (or the builder registered).
    function syncBuilder(bytes32 builderId, uint256 builderWord) external;

    /// @notice A pair's own fee was set or cleared, or the policy word it copies changed (zero: it has none).
    function syncPairFee(bytes32 pairKey, uint256 pairWord) external;

    /// @notice The terms a swap of `tokenIn` for `tokenOut` attributed to `builderId` is charged by, as
    ///         `IBuilderRegistry.feeTerms` words them.
    function feeTerms(address tokenIn, address tokenOut, bytes32 builderId) external view returns (uint256);

    /// @notice `feeTerms` read as a swap that says its pair has a fee of its own reads them (the pair's word
    ///         first): always the same answer.
    function pairFirstFeeTerms(address tokenIn, address tokenOut, bytes32 builderId) external view returns (uint256);

    /// @notice The copied policy word.
    function policyWord() external view returns (uint256);

    /// @notice The copied word of the pair whose key (`PairKey.key`) is `pairKey`; zero when it has no fee of
    ///         its own.
    function pairWord(bytes32 pairKey) external view returns (uint256);
}
