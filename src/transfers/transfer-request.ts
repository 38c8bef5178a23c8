import { CHAIN_ID } from "../chain/chain.ts";
import { type ErrorIssue, JunctionError } from "../errors/junction-error.ts";
import {
  ASSET_DECIMALS,
  type AssetBook,
  formatAssetTag,
  parseAssetTag,
  type TransferAsset,
} from "./assets.ts";
import { parseDecimalAmount } from "./decimal-amount.ts";
import type { TransferRequest } from "./estimate-transfer.ts";
import { TRANSFER_LIMITS } from "./limits.ts";

/** An omitted asset is ETH on our chain (docs/rules.md, transfer estimate rule 4). */
export const DEFAULT_ASSET: TransferAsset = { kind: "ETH", chainId: CHAIN_ID };

/**
 * Checks an estimate request beyond its shape (docs/rules.md, transfer estimate rules 4 and 6): both assets
 * on a chain the book holds, two different assets, an amount with no more fraction digits than its asset
 * has, and a supported delay. Anything else is one 400 INVALID_REQUEST naming every rejected parameter.
 */
export function checkTransferRequest(
  book: AssetBook,
  query: { inputAsset?: string; outputAsset?: string; amount: string; delaySeconds?: string },
): TransferRequest {
  const issues: ErrorIssue[] = [];
  const asset = (name: "inputAsset" | "outputAsset"): TransferAsset | undefined => {
    const tag = query[name];
    const parsed = tag === undefined ? DEFAULT_ASSET : parseAssetTag(tag);
    if (!parsed) {
      issues.push({ path: name, message: "must be ETH:<chainId>, STABLE:<chainId> or <chainId> (ETH)" });
      return undefined;
    }
    if (!book.get(parsed.chainId)?.[parsed.kind]) {
      const served = [...book.entries()]
        .filter(([, assets]) => assets[parsed.kind])
        .map(([chainId]) => chainId)
        .join(", ");
      issues.push({
        path: name,
        message: `${formatAssetTag(parsed)} is not served (${parsed.kind} chains: ${served})`,
      });
      return undefined;
    }
    return parsed;
  };
  const input = asset("inputAsset");
  const output = asset("outputAsset");
  if (input && output && input.kind === output.kind && input.chainId === output.chainId)
    issues.push({ path: "outputAsset", message: "must differ from inputAsset" });
  let amount: bigint | undefined;
  if (input) {
    amount = parseDecimalAmount(query.amount, ASSET_DECIMALS[input.kind]);
    if (amount === undefined)
      issues.push({
        path: "amount",
        message: `${input.kind} amounts have at most ${ASSET_DECIMALS[input.kind]} fraction digits`,
      });
  }
  const delaySeconds = query.delaySeconds === undefined ? 0 : Number(query.delaySeconds);
  if (!TRANSFER_LIMITS.supportedDelaysSeconds.includes(delaySeconds))
    issues.push({
      path: "delaySeconds",
      message: `only ${TRANSFER_LIMITS.supportedDelaysSeconds.join(", ")} is supported (immediate transfers)`,
    });
  if (issues.length > 0 || !input || !output || amount === undefined)
    throw new JunctionError("INVALID_REQUEST", "invalid transfer estimate request", { issues });
  return { input, output, amount, delaySeconds };
}
