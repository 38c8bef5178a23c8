import { CHAIN_ID } from "../../chain/chain.ts";
import type { AssetBook, AssetKind } from "../../transfers/assets.ts";
import { assetAt, bpsOf, pctE18, units } from "./market.ts";
import { type StandIn, type StandInAnswer, startStandIn } from "./stand-in-server.ts";

/** Chains the bridge-b stand-in serves (not OP Mainnet: those routes are not enabled). */
const CHAINS = new Set([1, 8453, 42161, CHAIN_ID]);
/** Its fee model, in the input asset: LP fee and relayer capital fee in bps, a fixed relayer gas fee. */
const LP_FEE_BPS = 4n;
const CAPITAL_FEE_BPS = 3n;
const GAS_FEE: Record<AssetKind, string> = { ETH: "0.00012", STABLE: "0.36" };
/** Limits: at least ten gas fees, at most its relayers' capital. */
const MAX_DEPOSIT: Record<AssetKind, string> = { ETH: "150", STABLE: "450000" };

const apiError = (code: string, message: string): StandInAnswer => ({
  status: 400,
  body: { type: "AcrossApiError", code, status: 400, message },
});

/**
 * The devnet's stand-in for bridge-b, an intent-based bridge, speaking its real API's shape
 * (`GET /api/suggested-fees`, Across-like): tokens by their wrapped address, one asset per route, fees as
 * `{pct, total}` with `pct` an 18-decimal fraction of the amount. Fee model: 0.04% LP fee, 0.03% relayer
 * capital fee and a fixed relayer gas fee (0.00012 ETH, or 0.36 of the stable asset). Limits: a minimum of
 * ten gas fees (`isAmountTooLow`), at most 150 ETH or 450,000 stable (`AMOUNT_TOO_HIGH`). No partner
 * commission.
 */
export function startBridgeBStandIn(book: AssetBook): Promise<StandIn> {
  return startStandIn({
    routes: { "GET /api/suggested-fees": ({ query }) => suggestedFees(book, query) },
    declined: apiError("ROUTE_NOT_ENABLED", "Route is not enabled."),
  });
}

function suggestedFees(book: AssetBook, query: URLSearchParams): StandInAnswer {
  const required = ["inputToken", "outputToken", "originChainId", "destinationChainId", "amount"];
  const missing = required.filter((name) => !query.get(name));
  if (missing.length > 0) return apiError("MISSING_PARAM", `Missing parameter: ${missing.join(", ")}`);
  const amountText = query.get("amount")!;
  if (!/^[0-9]{1,78}$/.test(amountText)) return apiError("INVALID_PARAM", "Invalid parameter: amount");
  const origin = Number(query.get("originChainId"));
  const destination = Number(query.get("destinationChainId"));
  const input = CHAINS.has(origin) ? assetAt(book, origin, query.get("inputToken")!, "wrapped") : undefined;
  const output = CHAINS.has(destination)
    ? assetAt(book, destination, query.get("outputToken")!, "wrapped")
    : undefined;
  if (!input || input !== output || origin === destination)
    return apiError("ROUTE_NOT_ENABLED", "Route is not enabled.");
  const amount = BigInt(amountText);
  const maxDeposit = units(MAX_DEPOSIT[input], input);
  if (amount > maxDeposit) return apiError("AMOUNT_TOO_HIGH", "Amount exceeds max. deposit limit.");
  const gas = units(GAS_FEE[input], input);
  const lp = bpsOf(amount, LP_FEE_BPS);
  const capital = bpsOf(amount, CAPITAL_FEE_BPS);
  const minDeposit = gas * 10n;
  const tooLow = amount < minDeposit;
  const total = lp + capital + gas;
  const fee = (value: bigint) => ({ pct: pctE18(value, amount).toString(), total: value.toString() });
  return {
    status: 200,
    body: {
      estimatedFillTimeSec: origin === 1 ? 12 : 4,
      timestamp: String(Math.floor(Date.now() / 1000)),
      isAmountTooLow: tooLow,
      quoteBlock: "0",
      exclusiveRelayer: "0x0000000000000000000000000000000000000000",
      exclusivityDeadline: 0,
      totalRelayFee: fee(total),
      relayerCapitalFee: fee(capital),
      relayerGasFee: fee(gas),
      lpFee: fee(lp),
      limits: {
        minDeposit: minDeposit.toString(),
        maxDeposit: maxDeposit.toString(),
        maxDepositInstant: maxDeposit.toString(),
        maxDepositShortDelay: maxDeposit.toString(),
        recommendedDepositInstant: maxDeposit.toString(),
      },
      outputAmount: (tooLow ? 0n : amount - total).toString(),
    },
  };
}
