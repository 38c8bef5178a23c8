import type { Address } from "viem";

/**
 * Candidates are simulated from this synthetic caller, never from a user's account: its balance and
 * allowance are set by state overrides to exactly what a candidate needs (docs/rules.md, comparison rule 3),
 * and no real account's state is assumed. It is `keccak256("junction.simulation.caller")[12:]`, an address
 * with no code and no key.
 */
export const SYNTHETIC_CALLER: Address = "0x7b5239b13ed5f927b45940a52848f07b4a2299b8";
