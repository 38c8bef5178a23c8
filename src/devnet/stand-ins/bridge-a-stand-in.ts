import { CHAIN_ID } from "../../chain/chain.ts";
import type { AssetBook, AssetKind } from "../../transfers/assets.ts";
import { assetAt, bpsOf, convert, units } from "./market.ts";
import { type StandIn, type StandInAnswer, startStandIn } from "./stand-in-server.ts";

/** Chains the bridge-a stand-in serves. */
const CHAINS = new Set([1, 10, 8453, 42161, CHAIN_ID]);
/** Its fee model: a bridge fee and an integrator share of it (both in bps of the input), a fixed relayer cost. */
const BRIDGE_FEE_BPS = 15n;
const INTEGRATOR_FEE_BPS = 10n;
const RELAYER_COST: Record<AssetKind, string> = { ETH: "0.0003", STABLE: "0.9" };
/** Limits: at least five relayer costs, at most what its liquidity holds. */
const MAXIMUM: Record<AssetKind, string> = { ETH: "300", STABLE: "900000" };

/** The aggregator's "no route" body: why each tool failed, per subpath. */
const noRoute = (code: string): StandInAnswer => ({
  status: 404,
  body: {
    message: "No available quotes for the requested transfer",
    code: 1002,
    errors: { filteredOut: [], failed: [{ overallPath: "stand-in", subpaths: { "stand-in": [{ code }] } }] },
  },
});

/**
 * The devnet's stand-in for bridge-a, a route-then-quote bridge aggregator, speaking its real API's shape
 * (`GET /v1/quote`, LI.FI-like): native ETH as the zero address, USDC by address, amounts in base units.
 * Fee model: 0.15% bridge fee, a 0.10% integrator share paid to the partner named by `integrator` (listed
 * as an included fee cost), and a fixed relayer cost (0.0003 ETH, or 0.9 of the stable asset), all in the
 * input asset, then converted at the devnet's reference ETH price. Limits: at least five relayer costs
 * (`AMOUNT_TOO_LOW`), at most 300 ETH or 900,000 stable (`INSUFFICIENT_LIQUIDITY`).
 */
export function startBridgeAStandIn(book: AssetBook): Promise<StandIn> {
  return startStandIn({
    routes: { "GET /v1/quote": ({ query }) => quote(book, query) },
    declined: noRoute("NO_POSSIBLE_ROUTE"),
  });
}

function quote(book: AssetBook, query: URLSearchParams): StandInAnswer {
  const required = ["fromChain", "toChain", "fromToken", "toToken", "fromAmount", "fromAddress"];
  const missing = required.filter((name) => !query.get(name));
  const amountText = query.get("fromAmount") ?? "";
  if (missing.length > 0 || !/^[0-9]{1,78}$/.test(amountText))
    return {
      status: 400,
      body: {
        message: `Invalid request: ${missing.length > 0 ? missing.join(", ") : "fromAmount"}`,
        code: 1011,
      },
    };
  const fromChain = Number(query.get("fromChain"));
  const toChain = Number(query.get("toChain"));
  const fromToken = query.get("fromToken")!;
  const toToken = query.get("toToken")!;
  const from = CHAINS.has(fromChain) ? assetAt(book, fromChain, fromToken, "native") : undefined;
  const to = CHAINS.has(toChain) ? assetAt(book, toChain, toToken, "native") : undefined;
  if (!from || !to || (fromChain === toChain && from === to)) return noRoute("NO_POSSIBLE_ROUTE");
  const amount = BigInt(amountText);
  const relayer = units(RELAYER_COST[from], from);
  if (amount < relayer * 5n) return noRoute("AMOUNT_TOO_LOW");
  if (amount > units(MAXIMUM[from], from)) return noRoute("INSUFFICIENT_LIQUIDITY");
  const bridgeFee = bpsOf(amount, BRIDGE_FEE_BPS);
  const integratorFee = bpsOf(amount, INTEGRATOR_FEE_BPS);
  const toAmount = convert(amount - bridgeFee - integratorFee - relayer, from, to);
  const token = (chainId: number, address: string) => ({ address, chainId });
  const cost = (name: string, amount_: bigint, percentage: string | undefined) => ({
    name,
    description: name,
    token: token(fromChain, fromToken),
    amount: amount_.toString(),
    ...(percentage ? { percentage } : {}),
    included: true,
  });
  return {
    status: 200,
    body: {
      type: "lifi",
      id: `stand-in-${fromChain}-${toChain}-${amountText}`,
      tool: "stand-in",
      action: {
        fromChainId: fromChain,
        toChainId: toChain,
        fromToken: token(fromChain, fromToken),
        toToken: token(toChain, toToken),
        fromAmount: amountText,
        fromAddress: query.get("fromAddress"),
        toAddress: query.get("fromAddress"),
      },
      estimate: {
        tool: "stand-in",
        fromAmount: amountText,
        toAmount: toAmount.toString(),
        toAmountMin: ((toAmount * 995n) / 1000n).toString(),
        executionDuration: fromChain === 1 || toChain === 1 ? 180 : 45,
        // Without an integrator the share stays with the provider: the same total, listed as its own fee.
        feeCosts: [
          ...(query.get("integrator")
            ? [cost("Bridge Fee", bridgeFee, "0.0015"), cost("Integrator Fee", integratorFee, "0.001")]
            : [cost("Bridge Fee", bridgeFee + integratorFee, "0.0025")]),
          cost("Relayer Fee", relayer, undefined),
        ],
        gasCosts: [],
      },
    },
  };
}
