import { randomBytes, randomUUID } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { type Address, toHex } from "viem";
import { createApp } from "../src/api/create-app.ts";
import { registerBuilderRoutes } from "../src/api/routes/builders/register-builder-routes.ts";
import { createBuilderKey, createWorkspace, markActivated } from "../src/auth/keys.ts";
import { createChainClient } from "../src/chain/create-chain-client.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { amountForUsd } from "../src/devnet/universe.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { createAdmission } from "../src/quote/admission.ts";
import { createQuoter } from "../src/quote/create-quoter.ts";
import { createFixtures } from "../src/simulation/fixtures.ts";
import { createTransferFeeMeter } from "../src/simulation/transfer-fee.ts";
import { createStore, type Store } from "../src/store/create-store.ts";
import { createThrowawayStore } from "../src/store/throwaway-store.ts";
import { machineLine, table } from "./machine.ts";
import { percentile } from "./measure.ts";
import {
  SPENDS_PER_WORKSPACE,
  storeThroughput,
  THROUGHPUT_MS,
  THROUGHPUT_WARM_UP_MS,
} from "./store-throughput.ts";

/** Timed requests per endpoint; fewer for fresh swap preparations, each of which needs a new quote first. */
const REQUESTS = 30;
const FRESH_SWAPS = 15;
/** Untimed requests before each endpoint's series (the JIT, each token's storage slots found once). */
const WARM_UP = 2;
/** Quoted pairs: a direct pool, and tokens further apart; $1,000 at the universe's reference prices. */
const PAIRS: [string, string][] = [
  ["WETH", "USDC"],
  ["LINK", "DAI"],
];
const QUOTE_USD = 1_000n;
/** The integration plan: 4 inputs × 4 outputs, disjoint, so every pair is a leg (16 legs). */
const PLAN_INPUTS = ["WETH", "USDC", "LINK", "UNI"];
const PLAN_OUTPUTS = ["DAI", "USDT", "WBTC", "AAVE"];
/** The funded test account that pays in every quote (never signs: preparation simulates with overrides). */
const PAYER_INDEX = 6;

/**
 * `npm run bench -- builders`: the builder API (`/api/v2/builders/*`) as an integrator meets it, called
 * in-process with `app.request` on the devnet with the service's own deps (chain client, pool index,
 * quoter, fixtures) and an in-memory PGlite store: latency per endpoint over sequential requests with a
 * valid key of the demo builder's workspace (activated, growth plan). Then the store's share of every
 * request: `spendQuota` and `authenticate` per second, sequential and 16 in flight, on embedded PGlite and
 * on the Postgres server at DATABASE_URL (a throwaway database) when it is set.
 */
export async function benchBuilderApi(devnet: Devnet): Promise<string[]> {
  const progress = (line: string) => process.stderr.write(`[bench] builders: ${line}\n`);
  const store = await createStore({ dataDir: null });
  let latency: string[][];
  let pools: number;
  try {
    const built = await builderApp(devnet, store);
    pools = built.pools;
    latency = await endpointLatency(devnet, store, built.app, progress);
  } finally {
    await store.close();
  }

  const backends: [string, () => Promise<Store>][] = [
    ["embedded PGlite (in memory)", () => createStore({ dataDir: null })],
  ];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl)
    backends.push([
      "Postgres server (DATABASE_URL)",
      () => createThrowawayStore(databaseUrl, "junction_bench"),
    ]);
  const throughput: string[][] = [];
  for (const [name, open] of backends) {
    progress(`store throughput on ${name}`);
    const opened = await open();
    try {
      throughput.push(...(await storeThroughput(name, opened)));
    } finally {
      await opened.close();
    }
  }

  return [
    "## Builder API",
    "",
    machineLine(
      `devnet seed ${devnet.manifest.seed}, ${devnet.boot.kind} boot, ${pools} indexed pools, no third-party providers; in-process requests (\`app.request\`) on an in-memory PGlite store`,
    ),
    "",
    `Sequential requests with one all-scope key of the demo builder's workspace (\`${devnet.manifest.junction.demoBuilder.code}\`, activated, growth plan); ${WARM_UP} untimed warm-up requests per endpoint. Times include authentication, the quota spend and reading the body. The workspace's quota counters are cleared before each endpoint, so no measured request is refused; builder-quote admission is raised to 10,000 a minute (the service's 60 would refuse the ${PAIRS.length * REQUESTS + FRESH_SWAPS} quotes).`,
    "",
    ...table(
      ["Endpoint", "Requests", "Answered", "p50 (ms)", "p90 (ms)", "max (ms)", "First answer"],
      latency,
    ),
    "",
    `Store throughput: \`spendQuota\` on the quote bucket (per-minute and hourly counters, one transaction; growth plan, a fresh workspace every ${SPENDS_PER_WORKSPACE} spends so none is refused, all in flight on the same workspace) and \`authenticate\` (key hash lookup joined with its workspace), each for ${THROUGHPUT_MS / 1000} s after a ${THROUGHPUT_WARM_UP_MS} ms warm-up. The Postgres pool holds 10 connections, so 16 in flight queue for them.${databaseUrl ? "" : " Postgres skipped: DATABASE_URL is not set."}`,
    "",
    ...table(
      ["Operation", "Backend", "In flight", "Operations", "Per second", "Mean latency (ms)", "Refused"],
      throughput,
    ),
  ];
}

/** The builder API app with the deps `startService` gives it, on the devnet and `store`. */
async function builderApp(devnet: Devnet, store: Store): Promise<{ app: OpenAPIHono; pools: number }> {
  const { manifest } = devnet;
  const client = createChainClient({ url: devnet.rpcUrl, kind: "private" });
  const index = createPoolIndex({
    client,
    contracts: manifest.contracts,
    fromBlock: BigInt(manifest.deploymentBlock),
  });
  await index.sync();
  const fixtures = createFixtures(client);
  const transferFees = createTransferFeeMeter(client);
  const app = createApp((error) => {
    throw error;
  });
  registerBuilderRoutes(app, {
    db: store.db,
    client,
    deployment: manifest,
    index,
    quote: createQuoter({ client, index, contracts: manifest.contracts, fixtures }),
    fixtures,
    transferFees,
    admission: createAdmission({ perMinute: 10_000 }),
    cursorSecret: randomBytes(32),
    now: Date.now,
  });
  return { app, pools: index.pools().length };
}

/** One endpoint's series: `next` does any untimed setup and returns the request to time. */
type Endpoint = {
  label: string;
  count: number;
  next: () => Promise<() => Promise<Response>>;
  /** What the first warm-up answer said, for the table (hops, entries, status). */
  describe?: (body: Json) => string;
};
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field.
type Json = Record<string, any>;

async function endpointLatency(
  devnet: Devnet,
  store: Store,
  app: OpenAPIHono,
  progress: (line: string) => void,
): Promise<string[][]> {
  const { manifest } = devnet;
  const code = manifest.junction.demoBuilder.code;
  const workspace = await createWorkspace(store.db, { name: code, builderCode: code });
  await store.db.updateTable("workspaces").set({ plan: "growth" }).where("id", "=", workspace.id).execute();
  await markActivated(store.db, code, new Date());
  const key = (
    await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "bench",
      scopes: ["quote", "swap", "tokens", "receipts"],
    })
  ).secret;

  const call = (method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) =>
    Promise.resolve(
      app.request(path, {
        method,
        headers: {
          "x-api-key": key,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const token = (symbol: string) => manifest.tokens.find((t) => t.symbol === symbol)!.address as Address;
  const payer = manifest.accounts[PAYER_INDEX]!.address;
  const quotePath = (from: string, to: string) =>
    `/api/v2/builders/quote?${new URLSearchParams({
      tokenIn: token(from),
      tokenOut: token(to),
      amountIn: amountForUsd(from, QUOTE_USD).toString(),
      payer,
    })}`;
  const freshQuote = async (): Promise<string> => {
    const response = await call("GET", quotePath("WETH", "USDC"));
    const body = (await response.json()) as Json;
    if (response.status !== 200)
      throw new Error(`builder quote answered ${response.status}: ${body.error?.code}`);
    return body.quoteId;
  };
  const prepare = (quoteId: string, idempotencyKey: string) =>
    call("POST", "/api/v2/builders/swaps", { quoteId }, { "idempotency-key": idempotencyKey });
  const fixed = (request: () => Promise<Response>) => () => Promise.resolve(request);
  // The replayed preparation and the receipts' quote are made just before their series (quotes live 120 s).
  let saved = { quoteId: "", idempotencyKey: randomUUID() };

  const endpoints: Endpoint[] = [
    ...PAIRS.map(
      ([from, to]): Endpoint => ({
        label: `GET quote ${from}→${to} ($${QUOTE_USD.toLocaleString("en-US")})`,
        count: REQUESTS,
        next: fixed(() => call("GET", quotePath(from, to))),
        describe: (body) =>
          `${Math.max(...body.routes.map((b: Json) => b.hops.length))} hops, ${body.routes.length} branch(es), ${body.execution.status}`,
      }),
    ),
    {
      label: "POST swaps, fresh Idempotency-Key on a fresh quote (quote untimed)",
      count: FRESH_SWAPS,
      next: async () => {
        const quoteId = await freshQuote();
        return () => prepare(quoteId, randomUUID());
      },
      describe: (body) => `${body.status}, approval required ${body.approval?.required}`,
    },
    {
      label: "POST swaps, replay of a saved Idempotency-Key",
      count: REQUESTS,
      next: async () => {
        if (!saved.quoteId) {
          saved = { ...saved, quoteId: await freshQuote() };
          await (await prepare(saved.quoteId, saved.idempotencyKey)).arrayBuffer();
        }
        return () => prepare(saved.quoteId, saved.idempotencyKey);
      },
      describe: (body) => `${body.status}`,
    },
    {
      label: "POST receipts, hash not mined (confirming)",
      count: REQUESTS,
      next: fixed(() =>
        call("POST", "/api/v2/builders/receipts", { quoteId: saved.quoteId, hash: toHex(randomBytes(32)) }),
      ),
      describe: (body) => `${body.status}`,
    },
    {
      label: "GET history, first page",
      count: REQUESTS,
      next: fixed(() => call("GET", "/api/v2/builders/history")),
      describe: (body) =>
        `${body.settlements.length} settlements, blocks ${body.scannedFrom}–${body.scannedThrough}`,
    },
    {
      label: "GET profile",
      count: REQUESTS,
      next: fixed(() => call("GET", "/api/v2/builders/profile")),
      describe: (body) => `enabled ${body.builder.enabled}`,
    },
    {
      label: "GET tokens (starter list)",
      count: REQUESTS,
      next: fixed(() => call("GET", "/api/v2/builders/tokens")),
      describe: (body) => `${body.tokens.length} tokens`,
    },
    {
      label: "GET usage",
      count: REQUESTS,
      next: fixed(() => call("GET", "/api/v2/builders/usage")),
      describe: (body) => `plan ${body.workspace.plan}`,
    },
    {
      label: `POST integration, ${PLAN_INPUTS.length} inputs × ${PLAN_OUTPUTS.length} outputs`,
      count: REQUESTS,
      next: fixed(() =>
        call("POST", "/api/v2/builders/integration", {
          action: "multi-plan",
          input: {
            execution: "sequential",
            payer,
            inputs: PLAN_INPUTS.map((symbol) => ({
              token: token(symbol),
              amount: amountForUsd(symbol, QUOTE_USD).toString(),
            })),
            outputs: PLAN_OUTPUTS.map((symbol) => ({
              token: token(symbol),
              weightBps: 10_000 / PLAN_OUTPUTS.length,
            })),
          },
        }),
      ),
      describe: (body) => `${body.legs.length} legs`,
    },
  ];

  const rows: string[][] = [];
  for (const endpoint of endpoints) {
    progress(endpoint.label);
    await store.db.deleteFrom("quota_counters").execute();
    let first = "";
    for (let i = 0; i < WARM_UP; i++) {
      const response = await (await endpoint.next())();
      const body = (await response.json()) as Json;
      if (i === 0)
        first =
          response.status === 200
            ? (endpoint.describe?.(body) ?? "")
            : `${response.status} ${body.error?.code ?? ""}`;
    }
    const ms: number[] = [];
    const answered = new Map<number, number>();
    for (let i = 0; i < endpoint.count; i++) {
      const send = await endpoint.next();
      const started = performance.now();
      const response = await send();
      await response.arrayBuffer();
      ms.push(performance.now() - started);
      answered.set(response.status, (answered.get(response.status) ?? 0) + 1);
    }
    rows.push([
      endpoint.label,
      String(endpoint.count),
      [...answered].map(([status, n]) => `${status} ×${n}`).join(", "),
      ...[percentile(ms, 50), percentile(ms, 90), Math.max(...ms)].map((v) => v.toFixed(1)),
      first,
    ]);
  }
  return rows;
}
