import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  maxUint160,
  maxUint256,
} from "viem";
import { erc20Abi } from "../../src/contracts/abis/ERC20.ts";
import { permit2Abi } from "../../src/contracts/abis/Permit2.ts";
import { weth9Abi } from "../../src/contracts/abis/WETH9.ts";
import { devnetTokenArtifact } from "../../src/contracts/artifacts/DevnetToken.ts";
import type { UniswapDeployment } from "../../src/devnet/deploy-uniswap.ts";
import type { ScaleTokenDeployed } from "./scale-manifest.ts";
import type { Nonces, Tx } from "./send-and-mine.ts";
import { amountForUsd, type ScaleToken } from "./universe.ts";

/** Every holder gets this much USD worth of each token: far more than seeding and every swap need. */
const HOLDING_USD = 100_000_000_000n;
/** WETH each swapping account wraps for the V2 and V3 swaps. */
const SWAPPER_WETH = 1_000_000n * 10n ** 18n;
const maxUint48 = 2 ** 48 - 1;

/**
 * Deployments of the tail and stable tokens (the devnet's plain OpenZeppelin token, minted at construction
 * to the builder and every swapping account), their addresses derived from the builder's nonces. WETH is
 * Uniswap's WETH9, already there.
 */
export function tokenDeployments(
  tokens: readonly ScaleToken[],
  uniswap: UniswapDeployment,
  holders: readonly Address[],
  nonces: Nonces,
): { txs: Tx[]; deployed: ScaleTokenDeployed[] } {
  const txs: Tx[] = [];
  const deployed = tokens.map((token): ScaleTokenDeployed => {
    const entry = { ...token, priceE8: token.priceE8.toString() };
    if (token.symbol === "WETH") return { ...entry, address: uniswap.weth9 };
    const from = holders[0]!;
    const nonce = nonces.take(from);
    const args = encodeAbiParameters(
      [{ type: "string" }, { type: "string" }, { type: "uint8" }, { type: "address[]" }, { type: "uint256" }],
      [token.name, token.symbol, token.decimals, holders, amountForUsd(token, HOLDING_USD)],
    );
    txs.push({
      from,
      nonce,
      data: `${devnetTokenArtifact.bytecode}${args.slice(2)}`,
      gas: 2_000_000n + 40_000n * BigInt(holders.length),
      label: `deploy ${token.symbol}`,
    });
    return { ...entry, address: getContractAddress({ from, nonce: BigInt(nonce) }) };
  });
  return { txs, deployed };
}

/**
 * WETH for every account that needs it, and the approvals seeding and swapping go through: the builder
 * approves the V2 router, the V3 position manager and (through Permit2) the V4 position manager; each
 * swapping account approves the V2 router, the V3 SwapRouter and (through Permit2) the Universal Router.
 */
export function fundingTxs(input: {
  tokens: readonly ScaleTokenDeployed[];
  uniswap: UniswapDeployment;
  builder: Address;
  builderWeth: bigint;
  swappers: readonly Address[];
  nonces: Nonces;
}): Tx[] {
  const { uniswap, nonces } = input;
  const txs: Tx[] = [];
  const send = (from: Address, to: Address, data: `0x${string}`, label: string, value?: bigint) =>
    txs.push({ from, nonce: nonces.take(from), to, data, gas: 150_000n, label, ...(value ? { value } : {}) });
  const wrap = encodeFunctionData({ abi: weth9Abi, functionName: "deposit" });
  send(input.builder, uniswap.weth9, wrap, "builder wraps ETH", input.builderWeth);
  for (const swapper of input.swappers)
    send(swapper, uniswap.weth9, wrap, `${swapper} wraps ETH`, SWAPPER_WETH);
  const approvals: [Address, Address[], Address][] = [
    [input.builder, [uniswap.v2Router02, uniswap.v3PositionManager], uniswap.v4PositionManager],
    ...input.swappers.map((swapper): [Address, Address[], Address] => [
      swapper,
      [uniswap.v2Router02, uniswap.v3SwapRouter],
      uniswap.universalRouter,
    ]),
  ];
  for (const [from, spenders, throughPermit2] of approvals)
    for (const token of input.tokens) {
      for (const spender of [...spenders, uniswap.permit2])
        send(
          from,
          token.address,
          encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] }),
          `${from} approves ${spender} for ${token.symbol}`,
        );
      send(
        from,
        uniswap.permit2,
        encodeFunctionData({
          abi: permit2Abi,
          functionName: "approve",
          args: [token.address, throughPermit2, maxUint160, maxUint48],
        }),
        `${from} approves ${throughPermit2} for ${token.symbol} through Permit2`,
      );
    }
  return txs;
}
