import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The SDK as an outside project gets it: `npm pack` (which builds dist/), the tarball installed into a
 * fresh project that has only viem besides, imported from plain Node, and a strict TypeScript consumer
 * type-checked against its declarations. In the devnet project because it installs packages (seconds).
 */
const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = join(sdkDir, "../..");
let project: string;
let packed: string[];

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "junction-sdk-pack-"));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", project], { cwd: sdkDir });
  const [tarball] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
    filename: string;
    files: { path: string }[];
  }[];
  packed = tarball!.files.map((file) => file.path).sort();
  const viem = JSON.parse(await readFile(join(repoRoot, "node_modules/viem/package.json"), "utf8"));
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  await run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      join(project, tarball!.filename),
      `viem@${viem.version}`,
    ],
    { cwd: project },
  );
}, 180_000);
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe("the packed SDK", () => {
  it("ships the built ESM and declarations, and no sources or tests", () => {
    expect(packed).toContain("dist/index.js");
    expect(packed).toContain("dist/index.d.ts");
    expect(packed).toContain("README.md");
    expect(packed.filter((path) => !path.startsWith("dist/") && path !== "README.md")).toEqual([
      "package.json",
    ]);
    expect(packed.filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts"))).toEqual([]);
  });

  it("imports from plain Node and throws its errors as values", async () => {
    const script = `
      import * as sdk from "@junction/sdk";
      const refusing = async () => new Response(JSON.stringify({ error: { code: "BUSY", message: "busy" } }), {
        status: 429, headers: { "content-type": "application/json", "retry-after": "2", "x-request-id": "r-1" },
      });
      const client = sdk.createJunctionClient({ baseUrl: "http://junction.test", fetch: refusing });
      const error = await client.config().catch((e) => e);
      console.log(JSON.stringify({
        exports: Object.keys(sdk).sort(),
        error: { isJunctionApiError: error instanceof sdk.JunctionApiError, status: error.status,
          code: error.code, retryAfterSeconds: error.retryAfterSeconds, requestId: error.requestId },
      }));`;
    const { stdout } = await run("node", ["--input-type=module", "-e", script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      exports: [
        "JunctionApiError",
        "SIGNING_MARGIN_SECONDS",
        "WEBHOOK_TOLERANCE_SECONDS",
        "WalletFlowError",
        "WebhookSignatureError",
        "createJunctionClient",
        "createPartnerClient",
        "createTransferClient",
        "prepareForSigning",
        "secondsLeft",
        "signAndSend",
        "verifyWebhook",
      ],
      error: { isJunctionApiError: true, status: 429, code: "BUSY", retryAfterSeconds: 2, requestId: "r-1" },
    });
  });

  it("type-checks a strict TypeScript consumer against real types", async () => {
    await writeFile(join(project, "consumer.ts"), CONSUMER);
    await writeFile(join(project, "tsconfig.json"), JSON.stringify(CONSUMER_TSCONFIG));
    const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
    const result = await run("node", [tsc, "-p", "tsconfig.json"], { cwd: project }).then(
      ({ stdout }) => ({ ok: true, stdout }),
      (error: { stdout: string }) => ({ ok: false, stdout: error.stdout }),
    );
    expect(result).toEqual({ ok: true, stdout: "" });
  });
});

/** No `@types/node` and no skipLibCheck: the published declarations must stand on viem and the DOM lib. */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM"],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ["consumer.ts"],
};

/**
 * Every surface of the README, typed: public quote, builder swap flow, partner quote, transfer estimate,
 * the event stream and webhook verification.
 */
const CONSUMER = `
import {
  type BuilderQuote,
  createJunctionClient,
  createPartnerClient,
  createTransferClient,
  JunctionApiError,
  type PartnerQuote,
  prepareForSigning,
  secondsLeft,
  type QuoteResponse,
  type SettlementEvent,
  type SignableTransaction,
  signAndSend,
  type TransferEstimate,
  verifyWebhook,
  WalletFlowError,
  WebhookSignatureError,
} from "@junction/sdk";
import { createPublicClient, createWalletClient, type Hex, http } from "viem";

const junction = createJunctionClient({ baseUrl: "http://127.0.0.1:8787", apiKey: "jk_example" });
const partner = createPartnerClient({ baseUrl: "http://127.0.0.1:8788", apiKey: "pk_example" });
const transfers = createTransferClient({ baseUrl: "http://127.0.0.1:8787", apiKey: "sk_example" });
const publicClient = createPublicClient({ transport: http("http://127.0.0.1:8545") });
const walletClient = createWalletClient({ transport: http("http://127.0.0.1:8545") });

export async function builderSwap(payer: string): Promise<"confirming" | "finalized"> {
  const quote: BuilderQuote = await junction.builders.quote({ tokenIn: "0x0", tokenOut: "0x1", amountIn: "1", payer });
  const prepared = await junction.builders.prepareSwap(quote.quoteId, crypto.randomUUID());
  const signable: SignableTransaction = await prepareForSigning(publicClient, prepared.tx, prepared);
  const left: number = secondsLeft(signable);
  const hash: Hex = await signAndSend(walletClient, signable);
  return (await junction.builders.receipts({ quoteId: quote.quoteId, hash })).status;
}

export async function settled(signal: AbortSignal): Promise<string | undefined> {
  for await (const event of junction.events({ types: ["settlement.finalized"], signal })) {
    const typed: SettlementEvent = event;
    // @ts-expect-error the status is one of confirming, finalized, reorged
    if (typed.data.status === "pending") return undefined;
    return \`\${event.quoteId} \${event.data.amountOut} \${event.data.routeFee}\`;
  }
  return undefined;
}

export async function received(body: string, header: string | undefined): Promise<number> {
  try {
    const event = await verifyWebhook(body, header, ["whsec_new", "whsec_old"], { toleranceSeconds: 300 });
    return event.type === "webhook.test" ? 200 : event.data.status === "finalized" ? 200 : 202;
  } catch (error) {
    if (error instanceof WebhookSignatureError && error.reason !== "invalid-body") return 400;
    throw error;
  }
}

export async function quotes(): Promise<string | null | undefined> {
  try {
    const pub: QuoteResponse = await junction.quote({ chainId: "4663", tokenIn: "0x0", tokenOut: "0x1", amountIn: "1" });
    const partnered: PartnerQuote = await partner.quote({ in: "0x0", out: "0x1", amount: "1" });
    const estimate: TransferEstimate = await transfers.routes({ amount: "1.5", outputAsset: "STABLE:8453" });
    // Types, not \`any\`: a misspelled query field is an error (an unused directive fails the check).
    // @ts-expect-error amountIm is not a query field
    await junction.quote({ chainId: "4663", tokenIn: "0x0", tokenOut: "0x1", amountIm: "1" });
    return partnered.ok ? pub.amountOut : estimate.estimatedOutput;
  } catch (error) {
    if (error instanceof JunctionApiError) return \`\${error.status} \${error.code} \${error.requestId ?? ""}\`;
    if (error instanceof WalletFlowError) return error.reason;
    throw error;
  }
}
`;
