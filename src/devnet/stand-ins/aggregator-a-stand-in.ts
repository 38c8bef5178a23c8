import { createHash, randomBytes } from "node:crypto";
import { type Address, encodeFunctionData, isAddress, zeroAddress } from "viem";
import { standInAggregatorRouterArtifact } from "../../contracts/artifacts/StandInAggregatorRouter.ts";
import { type StandIn, type StandInAnswer, startStandIn } from "./stand-in-server.ts";
import { bestStandInRoute, type RouteRules, type UniswapQuoting } from "./uniswap-routes.ts";

/** Native ETH as the route-then-build API writes it. */
export const NATIVE = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";
/** The chain segment of its paths (the real API names the chain in the path). */
export const AGGREGATOR_A_CHAIN = "junction";

/** aggregator-a's own fault modes: built calldata that reverts, or that delivers less than the route quoted. */
export const AGGREGATOR_A_FAULTS = ["revert", "short"] as const;

const SOURCES: Record<string, 0 | 1> = { uniswap: 0, uniswapv3: 1 };

const notFound: StandInAnswer = { status: 400, body: { code: 4008, message: "route not found" } };

type RouteSummary = {
  tokenIn: string;
  amountIn: string;
  tokenOut: string;
  amountOut: string;
  gas: string;
  route: {
    pool: string;
    tokenIn: string;
    tokenOut: string;
    swapAmount: string;
    amountOut: string;
    exchange: string;
    extra: { fee: number };
  }[][];
  routeID: string;
  checksum: string;
  timestamp: number;
};

/**
 * The devnet's stand-in for aggregator-a, a route-then-build aggregator, speaking its real API's shape
 * (KyberSwap-like): `GET /{chain}/api/v1/routes?tokenIn&tokenOut&amountIn[&includedSources][&onlyDirectPools]`
 * answers a checksummed `routeSummary`; `POST /{chain}/api/v1/route/build` with `{routeSummary, sender,
 * recipient, slippageTolerance, deadline}` answers the calldata for its router. It routes with its own
 * simpler logic (src/devnet/stand-ins/uniswap-routes.ts) and keeps its fee (10 bps) inside `amountOut`.
 */
export function startAggregatorAStandIn(options: {
  quoting: UniswapQuoting;
  router: Address;
  weth: Address;
  feeBps: number;
}): Promise<StandIn> {
  const secret = randomBytes(16).toString("hex");
  const checksum = (summary: Omit<RouteSummary, "checksum">) =>
    createHash("sha256").update(secret).update(JSON.stringify(summary)).digest("hex");
  const base = `/${AGGREGATOR_A_CHAIN}/api/v1`;
  return startStandIn({
    declined: notFound,
    faults: AGGREGATOR_A_FAULTS,
    routes: {
      [`GET ${base}/routes`]: async ({ query, fault }) => {
        const tokenIn = query.get("tokenIn") ?? "";
        const tokenOut = query.get("tokenOut") ?? "";
        const amountIn = query.get("amountIn") ?? "";
        if (!isAddress(tokenIn) || !isAddress(tokenOut) || !/^[1-9][0-9]{0,77}$/.test(amountIn))
          return { status: 400, body: { code: 4001, message: "invalid tokenIn, tokenOut or amountIn" } };
        const kinds = (query.get("includedSources") ?? "uniswap,uniswapv3")
          .split(",")
          .flatMap((source) => (source in SOURCES ? [SOURCES[source]!] : []));
        const rules: RouteRules = { maxHops: query.get("onlyDirectPools") === "true" ? 1 : 2, kinds };
        const wrap = (token: string) =>
          token.toLowerCase() === NATIVE.toLowerCase() ? options.weth : (token as Address);
        const route = await bestStandInRoute(
          options.quoting,
          wrap(tokenIn),
          wrap(tokenOut),
          BigInt(amountIn),
          rules,
        );
        if (!route) return notFound;
        const gross = route.amountOut;
        let amountOut = gross - (gross * BigInt(options.feeBps)) / 10_000n;
        // The "short" fault promises 1% more than the route delivers.
        if (fault === "short") amountOut += amountOut / 100n;
        const summary = {
          tokenIn,
          amountIn,
          tokenOut,
          amountOut: amountOut.toString(),
          gas: String(90_000 + 70_000 * route.hops.length),
          route: [
            route.hops.map((hop) => ({
              pool: `${hop.kind === 0 ? "uniswap" : "uniswapv3"}-${hop.fee}`,
              tokenIn: hop.tokenIn,
              tokenOut: hop.tokenOut,
              swapAmount: hop.amountIn.toString(),
              amountOut: hop.amountOut.toString(),
              exchange: hop.kind === 0 ? "uniswap" : "uniswapv3",
              extra: { fee: hop.fee },
            })),
          ],
          routeID: randomBytes(8).toString("hex"),
          timestamp: Math.floor(Date.now() / 1000),
        };
        return {
          status: 200,
          body: {
            code: 0,
            message: "successfully",
            data: {
              routeSummary: { ...summary, checksum: checksum(summary) },
              routerAddress: options.router,
            },
            requestId: randomBytes(8).toString("hex"),
          },
        };
      },
      [`POST ${base}/route/build`]: ({ body, fault }) => {
        const request = body as {
          routeSummary?: RouteSummary;
          sender?: string;
          recipient?: string;
          slippageTolerance?: number;
          deadline?: number;
        };
        const summary = request?.routeSummary;
        if (!summary || !isAddress(request.recipient ?? "") || !isAddress(request.sender ?? ""))
          return { status: 400, body: { code: 4001, message: "invalid routeSummary, sender or recipient" } };
        const { checksum: given, ...rest } = summary;
        if (given !== checksum(rest))
          return { status: 400, body: { code: 4002, message: "checksum mismatch" } };
        const slippage = BigInt(Math.min(Math.max(request.slippageTolerance ?? 50, 0), 2_000));
        const amountOut = BigInt(summary.amountOut);
        // "revert" builds a transaction already past its deadline; "short" one with no minimum.
        const minOut = fault === "short" ? 0n : amountOut - (amountOut * slippage) / 10_000n;
        const native = (token: string) =>
          token.toLowerCase() === NATIVE.toLowerCase() ? zeroAddress : (token as Address);
        const deadline =
          fault === "revert" ? 1n : BigInt(request.deadline ?? Math.floor(Date.now() / 1000) + 1200);
        const data = encodeFunctionData({
          abi: standInAggregatorRouterArtifact.abi,
          functionName: "swap",
          args: [
            native(summary.tokenIn),
            BigInt(summary.amountIn),
            native(summary.tokenOut),
            (summary.route[0] ?? []).map((hop) => ({
              kind: SOURCES[hop.exchange] ?? 0,
              tokenOut: hop.tokenOut as Address,
              fee: hop.extra.fee,
            })),
            minOut,
            request.recipient as Address,
            deadline,
          ],
        });
        const value = native(summary.tokenIn) === zeroAddress ? summary.amountIn : "0";
        return {
          status: 200,
          body: {
            code: 0,
            message: "successfully",
            data: {
              amountIn: summary.amountIn,
              amountOut: summary.amountOut,
              gas: summary.gas,
              data,
              routerAddress: options.router,
              transactionValue: value,
            },
          },
        };
      },
    },
  });
}
