import { type Hex, keccak256, toBytes } from "viem";

/**
 * The key identity a prepared swap carries into its settlement event: keccak256 of the key id (the public
 * `jct_<id>` part, never the secret). Receipt verification matches it so only the preparing key verifies.
 */
export function keyIdHashOf(keyId: string): Hex {
  return keccak256(toBytes(keyId));
}
