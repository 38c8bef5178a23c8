import { type Hex, keccak256, toBytes } from "viem";

/**
 * BUILDER_CODE (docs/rules.md, patterns): public, case-sensitive attribution, validated the same way on
 * chain.
 */
export const BUILDER_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

/** The on-chain builder id of a code: `keccak256(bytes(code))`, as the BuilderRegistry computes it. */
export function builderIdOf(code: string): Hex {
  if (!BUILDER_CODE_PATTERN.test(code)) throw new RangeError(`invalid builder code ${JSON.stringify(code)}`);
  return keccak256(toBytes(code));
}
