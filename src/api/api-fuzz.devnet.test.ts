import { randomBytes } from "node:crypto";
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { partnerKeys } from "../auth/partner-keys.ts";
import { QUOTE_SOURCES } from "../providers/quote-sources.ts";
import { createAdmission } from "../quote/admission.ts";
import { createBaseApp } from "./base-app.ts";
import { createPartnerApp } from "./partner-app.ts";
import { ErrorResponseSchema } from "./schemas/error.ts";

/**
 * Generated requests against both hosts, every documented operation, read from the apps' own OpenAPI
 * documents: parameters valid, missing, malformed, oversized or unknown; bodies well-formed, random or not
 * JSON; keys valid, wrong or absent; other HTTP methods. Whatever arrives, the service answers without a 5xx
 * of its own making, every error in the documented shape, never echoing more than a bounded piece of what
 * it was sent, and logs no unexpected error. An answer to an operation's own method has a status that
 * operation documents, and its body passes the schema documented for that status (the zod schema the
 * document is generated from). The seed is printed (set FUZZ_SEED to replay one).
 */
const RUNS = 2_500;
/** What an error may repeat of an input (errors/junction-error.ts `echo` keeps 64 characters). */
const ECHO_BOUND = 200;
/** 503 codes a healthy node may still answer with, by design (documented). */
const DOCUMENTED_503 = new Set(["ZAPS_DISABLED", "PREPARATION_FAILED", "REGISTRY_UNCOMMISSIONED"]);

type Operation = {
  host: "base" | "partner";
  method: string;
  path: string;
  params: Param[];
  body: boolean;
};
type Param = { name: string; in: "query" | "path" | "header"; required: boolean; enum?: unknown[] };
type Doc = { paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: unknown }>> };

let devnet: TestDevnet;
let builders: BuilderTestApi;
let apps: { base: OpenAPIHono; partner: OpenAPIHono };
let operations: Operation[];
/** Each operation's documented statuses with the zod schema of each JSON body (null: none), by opKey. */
const documented = new Map<string, Map<string, z.ZodType | null>>();
const opKey = (o: Operation) => `${o.host} ${o.method} ${o.path}`;
let keys: { builder: string; partner: string };
const unexpected: unknown[] = [];

beforeAll(async () => {
  devnet = await startTestDevnet();
  builders = await createBuilderTestApi(devnet);
  const logError = (error: unknown) => unexpected.push(error);
  apps = {
    base: createBaseApp({
      contracts: devnet.manifest.contracts,
      providers: () =>
        QUOTE_SOURCES.map((id) => ({ id, kind: "aggregator" as const, enabled: id === "service" })),
      latestBlock: () => devnet.publicClient.getBlockNumber(),
      logError,
      quote: builders.deps.quote,
      admission: createAdmission(),
      builders: builders.deps,
    }),
    partner: createPartnerApp({
      latestBlock: () => devnet.publicClient.getBlockNumber(),
      logError,
      partner: { ...builders.deps, admission: createAdmission() },
    }),
  };
  const workspace = await builders.workspace({ code: devnet.manifest.junction.demoBuilder.code });
  keys = {
    builder: await builders.key(workspace.id, ["quote", "swap", "tokens", "receipts"]),
    partner: (await partnerKeys.issue(builders.store.db, { name: "fuzz", scopes: ["swap"] })).secret,
  };
  operations = [];
  for (const host of ["base", "partner"] as const) {
    const routes = documentedResponses(apps[host]);
    const doc = (await (await apps[host].request("/openapi.json")).json()) as Doc;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const params = (operation.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required,
          enum: (p as { schema?: { enum?: unknown[] } }).schema?.enum,
        }));
        const responses = routes.get(`${method.toUpperCase()} ${path}`);
        if (!responses) throw new Error(`${method} ${path} is in the document but not in the registry`);
        const op: Operation = {
          host,
          method: method.toUpperCase(),
          path,
          params,
          body: !!operation.requestBody,
        };
        documented.set(opKey(op), responses);
        operations.push(op);
      }
    }
  }
});
afterAll(async () => {
  await builders?.close();
  await devnet?.dispose();
});

/** The statuses each route of an app documents, with the zod schema of each JSON body, by `METHOD /path`. */
function documentedResponses(app: OpenAPIHono): Map<string, Map<string, z.ZodType | null>> {
  const routes = new Map<string, Map<string, z.ZodType | null>>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { method, path, responses } = definition.route;
    const byStatus = new Map<string, z.ZodType | null>();
    for (const [status, response] of Object.entries(responses)) {
      const media = "content" in response ? response.content?.["application/json"] : undefined;
      const schema = media && "schema" in media ? media.schema : undefined;
      byStatus.set(status, schema instanceof z.ZodType ? schema : null);
    }
    routes.set(`${method.toUpperCase()} ${path}`, byStatus);
  }
  return routes;
}

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const account = () => devnet.manifest.accounts[3]!.address.toLowerCase();

/** A marker longer than any echo may be: if it comes back whole, an input was echoed unbounded. */
const MARKER = `Z${"q".repeat(ECHO_BOUND)}${randomBytes(4).toString("hex")}`;

/**
 * The deployment's own contracts (as `/api/v2/config` lists them: the executor, the collector, the
 * registry, WETH, the pool manager...), boundary values for every address a client sends: a recipient or
 * token that is one of them must be a clear 4xx or a quote, never a 500.
 */
function contractAddresses(): string[] {
  const addresses = Object.values(devnet.manifest.contracts)
    .filter((value) => typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value))
    .map((address) => String(address).toLowerCase());
  // Once each: the executor is also the settlement collector.
  return [...new Set(addresses)];
}

/** Values that pass a parameter's validation, by its name, so requests reach the work behind it. */
function validFor(name: string): string[] {
  const tokens = devnet.manifest.tokens.map((t) => t.address.toLowerCase());
  const account = devnet.manifest.accounts[3]!.address.toLowerCase();
  if (name === "chainId") return ["4663"];
  if (/^(tokenIn|tokenOut|in|out|address|token)$/.test(name))
    return [...tokens, "0x0000000000000000000000000000000000000000", ...contractAddresses()];
  if (/^(amountIn|amount)$/.test(name)) return ["1000000", "1000000000000000000", "1"];
  if (/^(payer|recipient|from)$/.test(name)) return [account, account, account, ...contractAddresses()];
  if (/^(code|builderCode)$/.test(name)) return [devnet.manifest.junction.demoBuilder.code, "nobody-here"];
  if (/Bps$/.test(name)) return ["0", "10", "50"];
  if (name === "idempotency-key") return ["fuzz-key-1", "fuzz-key-2"];
  return [];
}

function valueArbitrary(param: Param): fc.Arbitrary<string> {
  const tokens = devnet.manifest.tokens.map((t) => t.address);
  const valid = [...validFor(param.name), ...(param.enum ?? []).map(String)];
  const plausible = fc.constantFrom(
    ...tokens,
    "0x0000000000000000000000000000000000000000",
    "1000000000000000000",
    "4663",
    "50",
    "0",
    devnet.manifest.junction.demoBuilder.code,
    ...(param.enum ?? []).map(String),
  );
  return fc.oneof(
    ...(valid.length > 0 ? [{ weight: 40, arbitrary: fc.constantFrom(...valid) }] : []),
    { weight: 4, arbitrary: plausible },
    { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
    { weight: 1, arbitrary: fc.constantFrom(MARKER, "-1", "1e18", "0x", " ", "null", "[]", "9".repeat(90)) },
  );
}

const requestArbitrary = () =>
  fc.constantFrom(...operations).chain((operation) =>
    fc.record({
      operation: fc.constant(operation),
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(operation.method) },
        { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS") },
      ),
      values: fc.tuple(
        ...operation.params.map((p) => fc.option(valueArbitrary(p), { freq: p.required ? 12 : 3 })),
      ),
      // An unknown parameter in one request of ten.
      extra: fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constantFrom("foo", "amountin", MARKER), valueArbitrary({} as Param)),
        },
      ),
      key: fc.constantFrom("valid", "valid", "valid", "wrong", "absent"),
      body: fc.oneof(
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        fc
          .dictionary(
            fc.constantFrom("quoteId", "hash", "action", "input", "from", "code", MARKER),
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 40 }),
      ),
    }),
  );

describe("the deployment's own contracts as a client's addresses", () => {
  it("answers every contract as payer, recipient or multi-swap recipient with a quote or a 4xx, never a 5xx", async () => {
    // Requests otherwise valid, so each reaches the work behind its address (the random fuzz below rarely
    // builds one whole): a contract in these places once reached the executor's own checks as a 500.
    const growth = await builders.workspace({ plan: "growth" });
    const key = await builders.key(growth.id, ["quote"]);
    const tokens = { tokenIn: devnet.manifest.contracts.weth9, tokenOut: token("USDC") };
    const executor = devnet.manifest.contracts.executor.toLowerCase();
    const answers: string[] = [];
    for (const contract of contractAddresses()) {
      const requests: [string, () => Response | Promise<Response>][] = [
        [
          "builder quote recipient",
          () =>
            builders.call("GET", "/api/v2/builders/quote", {
              key,
              query: { ...tokens, amountIn: "1000000000000000", payer: account(), recipient: contract },
            }),
        ],
        [
          "builder quote payer",
          () =>
            builders.call("GET", "/api/v2/builders/quote", {
              key,
              query: { ...tokens, amountIn: "1000000000000000", payer: contract },
            }),
        ],
        [
          "multi-swap recipient",
          () =>
            builders.call("POST", "/api/v2/builders/integration", {
              key,
              body: {
                action: "multi-plan",
                input: {
                  execution: "sequential",
                  payer: account(),
                  recipient: contract,
                  inputs: [{ token: tokens.tokenIn, amount: "1000000000000000" }],
                  outputs: [{ token: tokens.tokenOut, weightBps: 10_000 }],
                },
              },
            }),
        ],
        [
          "partner quote recipient",
          () =>
            apps.partner.request(
              `/quote?${new URLSearchParams({ in: tokens.tokenIn, out: tokens.tokenOut, amount: "1000000000000000", recipient: contract })}`,
              { headers: { authorization: `Bearer ${keys.partner}` } },
            ),
        ],
      ];
      for (const [what, send] of requests) {
        const response = await send();
        const text = await response.text();
        answers.push(`${what} ${contract}: ${response.status}`);
        expect(response.status, `${what} ${contract}: ${text.slice(0, 300)}`).toBeLessThan(500);
        // The executor would keep the output: refused before any work, naming the field that named it.
        if (contract === executor && !what.startsWith("partner"))
          expect(JSON.parse(text).error.issues, what).toEqual([
            { path: expect.stringMatching(/recipient|payer/), message: "must not be the executor" },
          ]);
      }
    }
    expect(answers.filter((a) => a.includes(executor) && !a.startsWith("partner"))).toEqual([
      `builder quote recipient ${executor}: 400`,
      `builder quote payer ${executor}: 400`,
      `multi-swap recipient ${executor}: 400`,
    ]);
    expect(unexpected).toEqual([]);
  }, 600_000);
});

describe("API fuzz over both OpenAPI documents", () => {
  it(`answers ${RUNS} generated requests without a 5xx of its own, in the documented error shape`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.info(`[api fuzz] seed ${seed} (replay with FUZZ_SEED=${seed})`);
    expect(operations.length).toBeGreaterThan(15);
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(), async ({ operation, method, values, extra, key, body }) => {
        let path = operation.path;
        const query = new URLSearchParams();
        const headers: Record<string, string> = {};
        operation.params.forEach((param, i) => {
          const value = values[i];
          if (value === null || value === undefined) return;
          if (param.in === "path") path = path.replace(`{${param.name}}`, encodeURIComponent(value));
          else if (param.in === "query") query.append(param.name, value);
          else if (/^[\t\x20-\x7e]*$/.test(value)) headers[param.name] = value;
        });
        path = path.replace(/\{[^}]+\}/g, "x");
        if (extra) query.append(extra[0], extra[1]);
        const secret = operation.host === "base" ? keys.builder : keys.partner;
        if (key !== "absent") {
          const sent = key === "valid" ? secret : `${secret.slice(0, -4)}abcd`;
          if (operation.host === "base") headers["x-api-key"] = sent;
          else headers.authorization = `Bearer ${sent}`;
        }
        const init: RequestInit = { method, headers };
        if (body !== undefined && method !== "GET" && method !== "HEAD") {
          init.body = body;
          headers["content-type"] = "application/json";
        }
        const response = await apps[operation.host].request(`${path}?${query}`, init);
        const tally = `${operation.method} ${operation.path} ${response.status}`;
        statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
        const text = await response.text();
        const where = `${method} ${path}?${query} -> ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, where).not.toBe(500);
        expect(text, where).not.toContain(MARKER);
        const responses = documented.get(opKey(operation))!;
        if (method === operation.method && method !== "HEAD") {
          expect([...responses.keys()], `${where}: status not documented`).toContain(String(response.status));
          const schema = responses.get(String(response.status));
          if (schema) {
            const checked = schema.safeParse(JSON.parse(text));
            expect(checked.error?.issues ?? [], `${where}: body not as documented`).toEqual([]);
          }
        }
        if (response.status >= 400 && method !== "HEAD") {
          const parsed = ErrorResponseSchema.safeParse(JSON.parse(text));
          expect(parsed.success, where).toBe(true);
          const error = parsed.data!.error;
          if (response.status >= 500) expect(DOCUMENTED_503.has(error.code), where).toBe(true);
          expect(error.message.length, where).toBeLessThan(ECHO_BOUND * 3);
          for (const issue of error.issues ?? [])
            expect(issue.message.length, where).toBeLessThan(ECHO_BOUND * 3);
        }
      }),
      { numRuns: RUNS, seed },
    );
    console.info(
      `[api fuzz] answers by operation and status:\n${[...statuses]
        .sort()
        .map(([k, n]) => `  ${k}: ${n}`)
        .join("\n")}`,
    );
    expect(unexpected).toEqual([]);
  }, 600_000);
});
