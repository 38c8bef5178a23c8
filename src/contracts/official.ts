import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Hex } from "viem";
import { OFFICIAL_ARTIFACTS, type OfficialName, PERMIT2_SOURCE } from "./official-paths.ts";

export type OfficialBytecode = {
  /** Creation code, ready to deploy (no library links are needed by any contract we deploy). */
  bytecode: Hex;
  /** Runtime code as compiled; immutable slots hold zeros. */
  deployedBytecode: Hex;
  /** Byte ranges of immutables in the runtime code, when the artifact records them (forge artifacts do). */
  immutableRanges?: { start: number; length: number }[];
};

const require = createRequire(import.meta.url);
const cache = new Map<OfficialName | "Permit2Runtime", OfficialBytecode>();

const hex = (value: string): Hex => (value.startsWith("0x") ? value : `0x${value}`) as Hex;

/** Reads the official bytecode of a Uniswap (or WETH9) contract from its npm package's build artifact. */
export function officialBytecode(name: Exclude<OfficialName, "Permit2" | "ERC20">): OfficialBytecode {
  const cached = cache.get(name);
  if (cached) return cached;
  const spec = OFFICIAL_ARTIFACTS[name];
  const json = JSON.parse(readFileSync(require.resolve(spec.path), "utf8"));
  let result: OfficialBytecode;
  switch (spec.format) {
    case "truffle":
      result = { bytecode: hex(json.bytecode), deployedBytecode: hex(json.evm.deployedBytecode.object) };
      break;
    case "hardhat":
      result = { bytecode: hex(json.bytecode), deployedBytecode: hex(json.deployedBytecode) };
      break;
    case "forge": {
      const references = Object.values(json.deployedBytecode.immutableReferences ?? {}) as {
        start: number;
        length: number;
      }[][];
      result = {
        bytecode: hex(json.bytecode.object),
        deployedBytecode: hex(json.deployedBytecode.object),
        immutableRanges: references.flat(),
      };
      break;
    }
  }
  cache.set(name, result);
  return result;
}

/**
 * The official Permit2 runtime code, taken from the file Uniswap ships for placing Permit2 at its canonical
 * address in tests (`vm.etch`). The devnet places it there the same way (`anvil_setCode`).
 */
export function permit2RuntimeCode(): Hex {
  const cached = cache.get("Permit2Runtime");
  if (cached) return cached.deployedBytecode;
  const source = readFileSync(require.resolve(PERMIT2_SOURCE), "utf8");
  const match = /hex"([0-9a-fA-F]+)"/.exec(source);
  if (!match) throw new Error(`no Permit2 bytecode found in ${PERMIT2_SOURCE}`);
  const code = hex(match[1]!);
  cache.set("Permit2Runtime", { bytecode: "0x", deployedBytecode: code, immutableRanges: [] });
  return code;
}

/**
 * Whether on-chain runtime code is the official artifact's, immutables aside. With recorded immutable
 * ranges those bytes are masked; otherwise a difference is tolerated only inside a 32-byte word that is all
 * zeros in the artifact (where solc leaves immutables), so any change to real instructions is caught.
 */
export function matchesOfficialCode(onchain: Hex, official: OfficialBytecode): boolean {
  const a = Buffer.from(onchain.slice(2), "hex");
  const b = Buffer.from(official.deployedBytecode.slice(2), "hex");
  if (a.length !== b.length) return false;
  const masked = new Uint8Array(b.length);
  for (const { start, length } of official.immutableRanges ?? []) masked.fill(1, start, start + length);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i] || masked[i]) continue;
    if (official.immutableRanges) return false;
    if (!insideZeroWord(b, i)) return false;
  }
  return true;
}

function insideZeroWord(code: Buffer, index: number): boolean {
  for (let start = Math.max(0, index - 31); start <= index; start++) {
    if (start + 32 > code.length) break;
    let zero = true;
    for (let j = start; j < start + 32 && zero; j++) zero = code[j] === 0;
    if (zero) return true;
  }
  return false;
}
