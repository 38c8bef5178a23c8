import {
  type Address,
  type Hex,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
  toBytes,
  zeroAddress,
} from "viem";
import { expect } from "vitest";
import { createApp } from "../src/api/create-app.ts";
import type { BuilderApiDeps } from "../src/api/routes/builders/builder-api-deps.ts";
import { registerHistoryRoute } from "../src/api/routes/builders/history.ts";
import { builderIdOf } from "../src/builders/builder-code.ts";
import { builderRegistryArtifact } from "../src/contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../src/contracts/artifacts/Executor.ts";
import { buildExecutorSwap, type ExecutorSwap } from "../src/routing/executor-calldata.ts";
import { type BuilderTestApi, createBuilderTestApi } from "./builder-api.ts";
import { startTestDevnet, type TestDevnet } from "./devnet.ts";
import { executorKit } from "./executor-kit.ts";

/**
 * The settlement history's test chain: real executor swaps attributed to the demo builder and to an
 * unregistered code, several in one block and interleaved, finalized; with the builder API on it, a key
 * with the receipts scope, and the helpers that page through `GET /api/v2/builders/history` and compute
 * what it must answer from the swaps' receipts.
 */
export const DEMO = "junction-demo";
export const OTHER = "history-other";
export const GOVERNANCE = 1;
export const PATH = "/api/v2/builders/history";
const TRADER = 3;

export type HistoryBody = Record<string, unknown> & {
  settlements: Record<string, unknown>[];
  totalsByToken: Record<string, unknown>[];
  nextCursor: string | null;
};

export type HistoryGet = (query: Record<string, string>, apiKey?: string) => Response | Promise<Response>;

export type HistoryFixture = {
  devnet: TestDevnet;
  api: BuilderTestApi;
  kit: ReturnType<typeof executorKit>;
  /** A key of the demo workspace with the receipts scope. */
  key: string;
  /** The receipts of every settled swap, in the order mined. */
  receipts: TransactionReceipt[];
  /** The app with only the history route, at the given page limits, on the test deps with `overrides`. */
  historyApp: (
    limits?: { blocks: number; events: number },
    overrides?: Partial<BuilderApiDeps>,
  ) => HistoryGet;
  /** The deps' client, counting its eth_getLogs calls. */
  countingClient: () => { client: BuilderApiDeps["client"]; counter: { getLogs: number } };
  close: () => Promise<void>;
};

export async function startHistoryFixture(): Promise<HistoryFixture> {
  const devnet = await startTestDevnet();
  const api = await createBuilderTestApi(devnet);
  const kit = executorKit(devnet);
  const workspace = await api.workspace({ code: DEMO, plan: "growth" });
  const key = await api.key(workspace.id, ["receipts"]);
  const receipts: TransactionReceipt[] = [];

  /** Sends the swaps from `TRADER` into one block (automine off), then mines it. */
  const swapInOneBlock = async (terms: ExecutorSwap[]) => {
    const wallet = devnet.wallet(TRADER);
    const account = wallet.account!;
    const nonce = await devnet.publicClient.getTransactionCount({
      address: account.address,
      blockTag: "pending",
    });
    await devnet.testClient.setAutomine(false);
    try {
      const hashes: Hex[] = [];
      for (const [i, t] of terms.entries()) {
        const tx = buildExecutorSwap(t);
        hashes.push(
          await wallet.sendTransaction({
            account,
            chain: wallet.chain,
            ...tx,
            gas: 2_000_000n,
            nonce: nonce + i,
          }),
        );
      }
      await devnet.testClient.mine({ blocks: 1 });
      const mined = await Promise.all(
        hashes.map((hash) => devnet.publicClient.waitForTransactionReceipt({ hash })),
      );
      for (const receipt of mined) expect(receipt.status).toBe("success");
      expect(new Set(mined.map((r) => r.blockNumber)).size).toBe(1);
      receipts.push(...mined);
    } finally {
      await devnet.testClient.setAutomine(true);
    }
  };

  const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
  await kit.approveExecutor(TRADER, usdc);
  const recipient = devnet.manifest.accounts[8]!.address;
  const ethToUsdc = (code: string, amountIn: bigint) =>
    kit.terms({
      tokenIn: zeroAddress,
      tokenOut: usdc,
      amountIn,
      recipient,
      deadline: 2n ** 40n,
      builderId: builderIdOf(code),
      quoteId: keccak256(toBytes(`history-${code}-${amountIn}`)),
      keyIdHash: keccak256(toBytes(`key-${code}`)),
      route: {
        branches: [{ amountIn, hops: [{ kind: "v4", currencyOut: usdc, fee: 3000, tickSpacing: 60 }] }],
      },
    });
  const usdcToWeth = (code: string, amountIn: bigint, fees = true) =>
    kit.terms({
      ...(fees ? {} : { maxRouteFeeBps: 0, maxBuilderFeeBps: 0 }),
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      recipient,
      deadline: 2n ** 40n,
      builderId: builderIdOf(code),
      quoteId: keccak256(toBytes(`history-${code}-${amountIn}`)),
      route: { branches: [{ amountIn, hops: [{ kind: "v2", currencyOut: weth }] }] },
    });

  await swapInOneBlock([ethToUsdc(DEMO, 10n ** 17n)]);
  await devnet.testClient.mine({ blocks: 4 });
  // Three demo settlements and one of another code in one block: the event cap must cut inside it.
  // One of them charges no fee: the executor's `Attributed` record, read beside the collector's.
  await swapInOneBlock([
    usdcToWeth(DEMO, 100n * 10n ** 6n),
    ethToUsdc(OTHER, 2n * 10n ** 17n),
    ethToUsdc(DEMO, 3n * 10n ** 17n),
    usdcToWeth(DEMO, 400n * 10n ** 6n, false),
  ]);
  await devnet.testClient.mine({ blocks: 7 });
  await swapInOneBlock([usdcToWeth(DEMO, 500n * 10n ** 6n), ethToUsdc(OTHER, 6n * 10n ** 17n)]);
  // Finalized is latest - 2 on the devnet.
  await devnet.testClient.mine({ blocks: 3 });
  await readAttributedPolicies(devnet, receipts);

  return {
    devnet,
    api,
    kit,
    key,
    receipts,
    historyApp: (limits, overrides = {}) => {
      const app = createApp((error) => {
        throw error;
      });
      registerHistoryRoute(app, { ...api.deps, ...overrides }, limits ? { limits } : {});
      return (query, apiKey = key) =>
        app.request(`${PATH}?${new URLSearchParams(query)}`, { headers: { "x-api-key": apiKey } });
    },
    countingClient: () => {
      const counter = { getLogs: 0 };
      const client = new Proxy(api.deps.client, {
        get: (target, property, receiver) =>
          property === "getLogs"
            ? (...args: unknown[]) => {
                counter.getLogs++;
                return (target.getLogs as (...a: unknown[]) => unknown)(...args);
              }
            : Reflect.get(target, property, receiver),
      });
      return { client, counter };
    },
    close: async () => {
      await api.close();
      await devnet.dispose();
    },
  };
}

/** Every page of `code`'s history, following `nextCursor` until it is null. */
export async function allPages(get: HistoryGet, code: string): Promise<HistoryBody[]> {
  const pages: HistoryBody[] = [];
  let cursor: string | null = null;
  do {
    const response = await get(cursor ? { code, cursor } : { code });
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
    const body = (await response.json()) as HistoryBody;
    pages.push(body);
    cursor = body.nextCursor;
  } while (cursor !== null && pages.length < 500);
  return pages;
}

/** What the registry named for each `Attributed` record (by transaction hash and log index) at its block. */
const attributedPolicy = new Map<string, { builderRecipient: Address; policyVersion: bigint }>();

async function readAttributedPolicies(devnet: TestDevnet, receipts: TransactionReceipt[]) {
  for (const log of attributedLogs(devnet.manifest.contracts.executor, receipts)) {
    const [builderRecipient, policyVersion] = await devnet.publicClient.readContract({
      address: devnet.manifest.contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "recordPolicy",
      args: [log.args.builderId],
      blockNumber: log.blockNumber,
    });
    attributedPolicy.set(`${log.transactionHash}:${log.logIndex}`, { builderRecipient, policyVersion });
  }
}

const attributedLogs = (executor: Address, receipts: TransactionReceipt[]) =>
  receipts
    .flatMap((receipt) =>
      parseEventLogs({ abi: executorArtifact.abi, logs: receipt.logs, eventName: "Attributed" }),
    )
    .filter((log) => log.address.toLowerCase() === executor.toLowerCase());

/**
 * The settlement entries the route must return for these receipts' settlement records of `code`: the
 * collector's `Settled` events, and the executor's `Attributed` events (no fee; the registry's policy at
 * their block).
 */
export function expectedEntries(receipts: TransactionReceipt[], code: string) {
  const settled = receipts.flatMap((receipt) =>
    parseEventLogs({ abi: executorArtifact.abi, logs: receipt.logs, eventName: "Settled" }),
  );
  const attributed = receipts
    .flatMap((receipt) =>
      parseEventLogs({ abi: executorArtifact.abi, logs: receipt.logs, eventName: "Attributed" }),
    )
    .map((log) => {
      const policy = attributedPolicy.get(`${log.transactionHash}:${log.logIndex}`);
      if (!policy) throw new Error("an Attributed record the fixture did not read the policy of");
      const args = {
        ...log.args,
        grossAmountOut: log.args.amountOut,
        routeFee: 0n,
        builderFee: 0n,
        ...policy,
      };
      return { ...log, args };
    });
  return [...settled, ...attributed]
    .filter((log) => log.args.builderId === builderIdOf(code))
    .sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : Number(a.blockNumber - b.blockNumber),
    )
    .map((log) => ({
      quoteId: log.args.quoteId,
      builderCode: code,
      builderId: log.args.builderId,
      keyIdHash: log.args.keyIdHash,
      payer: log.args.payer,
      recipient: log.args.recipient,
      tokenIn: log.args.tokenIn,
      amountIn: log.args.amountIn.toString(),
      tokenOut: log.args.tokenOut,
      grossAmountOut: log.args.grossAmountOut.toString(),
      routeFee: log.args.routeFee.toString(),
      builderFee: log.args.builderFee.toString(),
      amountOut: log.args.amountOut.toString(),
      builderRecipient: log.args.builderRecipient,
      policyVersion: log.args.policyVersion.toString(),
      hash: log.transactionHash,
      blockNumber: log.blockNumber.toString(),
      blockHash: log.blockHash,
      logIndex: log.logIndex,
      status: "finalized",
    }));
}

/** Per-token sums of settlement entries, as the route reports them. */
export function sums(entries: Record<string, unknown>[]) {
  const byToken = new Map<
    string,
    { gross: bigint; route: bigint; builder: bigint; out: bigint; count: number }
  >();
  for (const e of entries) {
    const t = byToken.get(e.tokenOut as string) ?? { gross: 0n, route: 0n, builder: 0n, out: 0n, count: 0 };
    t.gross += BigInt(e.grossAmountOut as string);
    t.route += BigInt(e.routeFee as string);
    t.builder += BigInt(e.builderFee as string);
    t.out += BigInt(e.amountOut as string);
    t.count += 1;
    byToken.set(e.tokenOut as string, t);
  }
  return byToken;
}
