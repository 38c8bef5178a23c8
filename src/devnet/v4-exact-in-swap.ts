import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  zeroAddress,
} from "viem";
import { universalRouterAbi } from "../contracts/abis/UniversalRouter.ts";
import { POOL_KEY_ABI, type PoolKey } from "../liquidity/v4/pool-key.ts";

/** Universal Router command V4_SWAP (universal-router `Commands.sol`). */
const V4_SWAP = "0x10";
/** v4-periphery actions (`Actions.sol`): SWAP_EXACT_IN_SINGLE, SETTLE_ALL, TAKE_ALL. */
const ACTIONS = encodePacked(["uint8", "uint8", "uint8"], [0x06, 0x0c, 0x0f]);

/**
 * The Universal Router `execute` call that swaps exactly `amountIn` through one V4 pool and takes at least
 * `amountOutMinimum` out (else it reverts). Native ETH in is paid as the transaction's value; a token in is
 * pulled through Permit2, which the sender must have approved for the router.
 */
export function v4ExactInSwap(swap: {
  universalRouter: Address;
  poolKey: PoolKey;
  zeroForOne: boolean;
  amountIn: bigint;
  amountOutMinimum: bigint;
  deadline: bigint;
}): { to: Address; data: Hex; value?: bigint } {
  const { poolKey, zeroForOne, amountIn, amountOutMinimum } = swap;
  const [currencyIn, currencyOut] = zeroForOne
    ? [poolKey.currency0, poolKey.currency1]
    : [poolKey.currency1, poolKey.currency0];
  const params = encodeAbiParameters(
    [
      {
        type: "tuple",
        components: [
          { ...POOL_KEY_ABI[0], name: "poolKey" },
          { name: "zeroForOne", type: "bool" },
          { name: "amountIn", type: "uint128" },
          { name: "amountOutMinimum", type: "uint128" },
          { name: "hookData", type: "bytes" },
        ],
      },
    ],
    [{ poolKey, zeroForOne, amountIn, amountOutMinimum, hookData: "0x" }],
  );
  const settle = encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [currencyIn, amountIn]);
  const take = encodeAbiParameters(
    [{ type: "address" }, { type: "uint256" }],
    [currencyOut, amountOutMinimum],
  );
  const input = encodeAbiParameters(
    [{ type: "bytes" }, { type: "bytes[]" }],
    [ACTIONS, [params, settle, take]],
  );
  return {
    to: swap.universalRouter,
    data: encodeFunctionData({
      abi: universalRouterAbi,
      functionName: "execute",
      args: [V4_SWAP, [input], swap.deadline],
    }),
    ...(currencyIn === zeroAddress ? { value: amountIn } : {}),
  };
}
