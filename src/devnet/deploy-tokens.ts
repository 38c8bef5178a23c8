import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  maxUint160,
  maxUint256,
} from "viem";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { permit2Abi } from "../contracts/abis/Permit2.ts";
import { weth9Abi } from "../contracts/abis/WETH9.ts";
import { devnetTokenArtifact } from "../contracts/artifacts/DevnetToken.ts";
import { feeOnTransferTokenArtifact } from "../contracts/artifacts/FeeOnTransferToken.ts";
import { namespacedTokenArtifact } from "../contracts/artifacts/NamespacedToken.ts";
import { sharesTokenArtifact } from "../contracts/artifacts/SharesToken.ts";
import { soladyLayoutTokenArtifact } from "../contracts/artifacts/SoladyLayoutToken.ts";
import type { UniswapDeployment } from "./deploy-uniswap.ts";
import type { Sender } from "./sender.ts";
import { amountForUsd, type TokenKind, type TokenSpec, TRANSFER_FEE_BPS } from "./universe.ts";

export type DeployedToken = TokenSpec & { address: Address };

const ARTIFACTS: Record<TokenKind, { bytecode: Hex }> = {
  standard: devnetTokenArtifact,
  "fee-on-transfer": feeOnTransferTokenArtifact,
  "solady-layout": soladyLayoutTokenArtifact,
  "erc7201-namespaced": namespacedTokenArtifact,
  "rebasing-shares": sharesTokenArtifact,
};

/** Every holder starts with this much USD worth of each token: plenty for seeding and for tests. */
const HOLDING_USD = 1_000_000_000n;
/** ETH the deployer wraps into WETH9 for seeding V2/V3 WETH pools. */
const WRAPPED_ETH = 300_000n * 10n ** 18n;

/** Deploys the devnet's ERC-20s, each minted to the deployer and every funded test account. */
export async function deployTokens(
  sender: Sender,
  tokens: readonly TokenSpec[],
  holders: readonly Address[],
): Promise<DeployedToken[]> {
  const deployed: DeployedToken[] = [];
  for (const token of tokens) {
    const args = [
      token.name,
      token.symbol,
      token.decimals,
      holders,
      amountForUsd(token.symbol, HOLDING_USD),
    ] as const;
    const params = [
      { type: "string" },
      { type: "string" },
      { type: "uint8" },
      { type: "address[]" },
      { type: "uint256" },
    ] as const;
    const encoded =
      token.kind === "fee-on-transfer"
        ? encodeAbiParameters([...params, { type: "uint16" }], [...args, TRANSFER_FEE_BPS])
        : encodeAbiParameters(params, args);
    const address = await sender.deploy({
      bytecode: ARTIFACTS[token.kind].bytecode,
      args: encoded,
      label: `deploy ${token.symbol}`,
    });
    deployed.push({ ...token, address });
  }
  return deployed;
}

/**
 * Approves the official routers and position managers for the deployer's tokens (V4 goes through Permit2,
 * as PositionManager requires) and wraps ETH for the WETH pools.
 */
export async function approveForSeeding(
  sender: Sender,
  uniswap: UniswapDeployment,
  tokens: readonly Address[],
): Promise<void> {
  await sender.send({
    to: uniswap.weth9,
    data: encodeFunctionData({ abi: weth9Abi, functionName: "deposit" }),
    value: WRAPPED_ETH,
    label: "wrap ETH",
  });
  const maxUint48 = 2 ** 48 - 1;
  for (const token of [uniswap.weth9, ...tokens]) {
    for (const spender of [uniswap.v2Router02, uniswap.v3PositionManager, uniswap.permit2]) {
      await sender.send({
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] }),
        label: `approve ${token} for ${spender}`,
      });
    }
    await sender.send({
      to: uniswap.permit2,
      data: encodeFunctionData({
        abi: permit2Abi,
        functionName: "approve",
        args: [token, uniswap.v4PositionManager, maxUint160, maxUint48],
      }),
      label: `permit2 approve ${token}`,
    });
  }
}
