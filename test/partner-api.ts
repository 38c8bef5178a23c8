import type { OpenAPIHono } from "@hono/zod-openapi";
import { createPartnerApp } from "../src/api/partner-app.ts";
import type { PartnerApiDeps, PartnerGate } from "../src/api/routes/partner/partner-api-deps.ts";
import { JunctionError } from "../src/errors/junction-error.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { createAdmission } from "../src/quote/admission.ts";
import { createQuoter } from "../src/quote/create-quoter.ts";
import { createFixtures } from "../src/simulation/fixtures.ts";
import type { TestDevnet } from "./devnet.ts";

/** Stand-in bearer keys: one with swap permission, one quote-only. */
export const PARTNER_TEST_KEYS = { swap: "test-partner-swap", quote: "test-partner-quote" } as const;

/** A gate with two fixed keys and no rate limit: the partner routes' tests, apart from key storage. */
export const testGate: PartnerGate = {
  access: async (c, next) => {
    const match = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "");
    const key = match?.[1];
    if (key !== PARTNER_TEST_KEYS.swap && key !== PARTNER_TEST_KEYS.quote)
      throw new JunctionError("UNAUTHORIZED", "invalid partner key");
    c.set("partner", { keyId: key, name: key, swap: key === PARTNER_TEST_KEYS.swap });
    await next();
  },
  charge: async () => {},
};

export type PartnerTestApi = {
  app: OpenAPIHono;
  deps: PartnerApiDeps;
  /** Calls the app in-process with a bearer key (default: the swap key; null: none). */
  get: (
    path: string,
    query: Record<string, string>,
    options?: { key?: string | null; headers?: Record<string, string> },
  ) => Promise<Response>;
};

/** The partner app on a test devnet: the same routes and deps the service mounts. */
export async function createPartnerTestApi(
  devnet: TestDevnet,
  options: { now?: () => number; gate?: PartnerGate; admission?: ReturnType<typeof createAdmission> } = {},
): Promise<PartnerTestApi> {
  const client = devnet.publicClient as never;
  const contracts = devnet.manifest.contracts;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  const fixtures = createFixtures(client);
  const deps: PartnerApiDeps = {
    client,
    deployment: devnet.manifest,
    index,
    quote: createQuoter({ client, index, contracts, fixtures }),
    fixtures,
    admission: options.admission ?? createAdmission({ perMinute: 10_000 }),
    gate: options.gate ?? testGate,
    now: options.now ?? Date.now,
  };
  const app = createPartnerApp({
    latestBlock: () => devnet.publicClient.getBlockNumber(),
    logError: (error) => {
      throw error;
    },
    partner: deps,
  });
  return {
    app,
    deps,
    get(path, query, opts = {}) {
      const key = opts.key === undefined ? PARTNER_TEST_KEYS.swap : opts.key;
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (key !== null) headers.authorization = `Bearer ${key}`;
      return Promise.resolve(app.request(`${path}?${new URLSearchParams(query)}`, { headers }));
    },
  };
}
