import { type Address, encodeAbiParameters, getCreate2Address, type Hex, keccak256 } from "viem";

const sorted = (a: Address, b: Address): [Address, Address] => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);

/** The canonical V2 pair for two tokens: CREATE2 from the factory (UniswapV2Library.pairFor). */
export function v2PairAddress(
  factory: Address,
  initCodeHash: Hex,
  tokenA: Address,
  tokenB: Address,
): Address {
  const [token0, token1] = sorted(tokenA, tokenB);
  const salt = keccak256(`0x${token0.slice(2)}${token1.slice(2)}`);
  return getCreate2Address({ from: factory, salt, bytecodeHash: initCodeHash });
}

/** The canonical V3 pool: CREATE2 from the factory over (token0, token1, fee) (PoolAddress.computeAddress). */
export function v3PoolAddress(
  factory: Address,
  initCodeHash: Hex,
  tokenA: Address,
  tokenB: Address,
  fee: number,
): Address {
  const [token0, token1] = sorted(tokenA, tokenB);
  const salt = keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }],
      [token0, token1, fee],
    ),
  );
  return getCreate2Address({ from: factory, salt, bytecodeHash: initCodeHash });
}
