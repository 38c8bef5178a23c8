import { randomBytes } from "node:crypto";
import { type Address, encodeAbiParameters, encodeFunctionData, isAddress, type PublicClient } from "viem";
import { standInAllowanceHolderArtifact } from "../../contracts/artifacts/StandInAllowanceHolder.ts";
import { standInSettlerArtifact } from "../../contracts/artifacts/StandInSettler.ts";
import { SETTLER_ACTION } from "../../providers/aggregator-b.ts";
import { NATIVE } from "./aggregator-a-stand-in.ts";
import { type StandIn, type StandInAnswer, startStandIn } from "./stand-in-server.ts";
import { bestStandInRoute, type UniswapQuoting } from "./uniswap-routes.ts";

/**
 * aggregator-b's own fault modes: a transaction binding the wrong recipient, a firm quote already expired,
 * a settler the registry does not name, calldata that reverts, and calldata that delivers less than quoted.
 */
export const AGGREGATOR_B_FAULTS = ["wrong-binding", "expired", "stale-settler", "revert", "short"] as const;

/** How long a firm quote stays executable (the settler's deadline). */
const FIRM_QUOTE_SECONDS = 60n;
/** The default slippage the firm quote's minimum allows, as the real API's default. */
const DEFAULT_SLIPPAGE_BPS = 100n;

const noLiquidity: StandInAnswer = {
  status: 200,
  body: { liquidityAvailable: false, zid: "0x00000000000000000000000000000000" },
};

/**
 * The devnet's stand-in for aggregator-b, a firm-quote API executed through a fixed allowance holder and a
 * settler named by an on-chain registry, speaking its real API's shape (0x v2-like):
 * `GET /swap/allowance-holder/quote?chainId&sellToken&buyToken&sellAmount&taker[&recipient][&slippageBps]`
 * (the recipient defaults to the taker) answers
 * `buyAmount`, `minBuyAmount`, `issues.allowance.spender` and a `transaction` to the allowance holder
 * calling `exec(settler, sellToken, sellAmount, settler, execute(...))`. It routes with the stand-ins' own
 * simpler logic and keeps its fee (5 bps) inside `buyAmount`.
 */
export function startAggregatorBStandIn(options: {
  quoting: UniswapQuoting;
  client: PublicClient;
  allowanceHolder: Address;
  settler: Address;
  staleSettler: Address;
  weth: Address;
  feeBps: number;
  chainId: number;
}): Promise<StandIn> {
  return startStandIn({
    declined: noLiquidity,
    faults: AGGREGATOR_B_FAULTS,
    routes: {
      "GET /swap/allowance-holder/quote": async ({ query, fault }) => {
        const sellToken = query.get("sellToken") ?? "";
        const buyToken = query.get("buyToken") ?? "";
        const sellAmount = query.get("sellAmount") ?? "";
        const taker = query.get("taker") ?? "";
        const payee = query.get("recipient") ?? taker;
        if (query.get("chainId") !== String(options.chainId))
          return { status: 400, body: { name: "INPUT_INVALID", message: "chainId is not supported" } };
        if (
          !isAddress(sellToken) ||
          !isAddress(buyToken) ||
          !isAddress(taker) ||
          !isAddress(payee) ||
          !/^[1-9][0-9]{0,77}$/.test(sellAmount)
        )
          return {
            status: 400,
            body: {
              name: "INPUT_INVALID",
              message: "invalid sellToken, buyToken, sellAmount, taker or recipient",
            },
          };
        const native = (token: string) => token.toLowerCase() === NATIVE.toLowerCase();
        const wrap = (token: string) => (native(token) ? options.weth : (token as Address));
        const amountIn = BigInt(sellAmount);
        const route = await bestStandInRoute(options.quoting, wrap(sellToken), wrap(buyToken), amountIn, {
          maxHops: 2,
          kinds: [0, 1],
        });
        if (!route) return noLiquidity;
        const gross = route.amountOut;
        const fee = (gross * BigInt(options.feeBps)) / 10_000n;
        const delivered = gross - fee;
        const buyAmount = fault === "short" ? delivered + delivered / 100n : delivered;
        const slippage = BigInt(query.get("slippageBps") ?? DEFAULT_SLIPPAGE_BPS);
        let minBuyAmount = buyAmount - (buyAmount * slippage) / 10_000n;
        if (fault === "short") minBuyAmount = 0n;
        const block = await options.client.getBlock();
        const deadline = fault === "expired" ? block.timestamp - 1n : block.timestamp + FIRM_QUOTE_SECONDS;
        const settler = fault === "stale-settler" ? options.staleSettler : options.settler;
        const recipient = fault === "wrong-binding" ? options.settler : (payee as Address);
        const action = encodeAbiParameters(SETTLER_ACTION, [
          sellToken as Address,
          amountIn,
          // "revert": a hop kind the settler does not know, so the settlement reverts.
          route.hops.map((hop) => ({
            kind: fault === "revert" ? 7 : hop.kind,
            tokenOut: hop.tokenOut,
            fee: hop.fee,
          })),
          deadline,
        ]);
        const zid = `0x${randomBytes(32).toString("hex")}` as const;
        const execute = encodeFunctionData({
          abi: standInSettlerArtifact.abi,
          functionName: "execute",
          args: [{ recipient, buyToken: buyToken as Address, minAmountOut: minBuyAmount }, [action], zid],
        });
        const data = encodeFunctionData({
          abi: standInAllowanceHolderArtifact.abi,
          functionName: "exec",
          args: [settler, sellToken as Address, amountIn, settler, execute],
        });
        return {
          status: 200,
          body: {
            blockNumber: block.number.toString(),
            buyAmount: buyAmount.toString(),
            buyToken,
            fees: {
              integratorFee: null,
              zeroExFee: { amount: fee.toString(), token: buyToken, type: "volume" },
              gasFee: null,
            },
            issues: {
              allowance: native(sellToken) ? null : { actual: "0", spender: options.allowanceHolder },
              balance: null,
              simulationIncomplete: false,
              invalidSourcesPassed: [],
            },
            liquidityAvailable: true,
            minBuyAmount: minBuyAmount.toString(),
            route: {
              fills: route.hops.map((hop) => ({
                from: hop.tokenIn,
                to: hop.tokenOut,
                source: hop.kind === 0 ? "Uniswap_V2" : "Uniswap_V3",
                proportionBps: "10000",
              })),
              tokens: [],
            },
            sellAmount,
            sellToken,
            totalNetworkFee: null,
            transaction: {
              to: options.allowanceHolder,
              data,
              gas: String(120_000 + 80_000 * route.hops.length),
              gasPrice: "0",
              value: native(sellToken) ? sellAmount : "0",
            },
            zid: `0x${randomBytes(12).toString("hex")}`,
          },
        };
      },
    },
  });
}
