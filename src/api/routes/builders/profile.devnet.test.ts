import { createPublicClient, http, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { junctionChain } from "../../../chain/chain.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";
import { createApp } from "../../create-app.ts";
import { registerProfileRoute } from "./profile.ts";

/**
 * `GET /api/v2/builders/profile` on a devnet: the demo builder against the manifest and the chain, unknown
 * codes, a suspended builder, the gate, and last (it changes the registry for good) an uncommissioned
 * registry.
 */
let devnet: TestDevnet;
let api: BuilderTestApi;
let key: string;

const PATH = "/api/v2/builders/profile";
const GOVERNANCE = 1;

async function governance(functionName: "setBuilderEnabled" | "setCommissioned", args: readonly unknown[]) {
  const wallet = devnet.wallet(GOVERNANCE);
  const hash = await wallet.writeContract({
    address: devnet.manifest.contracts.builderRegistry,
    abi: builderRegistryArtifact.abi,
    functionName,
    args: args as never,
    chain: wallet.chain,
    account: wallet.account!,
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

const get = (query: Record<string, string> = {}, apiKey = key) =>
  api.call("GET", PATH, { key: apiKey, query });

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet);
  const workspace = await api.workspace({ code: "junction-demo" });
  key = await api.key(workspace.id, ["tokens"]);
});

afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

describe("GET /api/v2/builders/profile", () => {
  it("returns the demo builder as registered on chain, at a canonical block", async () => {
    const response = await get({ code: "junction-demo" });
    expect(response.status).toBe(200);
    const { builder } = (await response.json()) as { builder: Record<string, unknown> };
    const demo = devnet.manifest.junction.demoBuilder;
    expect(builder).toEqual({
      code: "junction-demo",
      owner: demo.owner.toLowerCase(),
      pendingOwner: zeroAddress,
      recipient: demo.recipient.toLowerCase(),
      builderFeeBps: demo.builderFeeBps,
      maxBuilderFeeBps: devnet.manifest.junction.feeSchedule.defaultMaxBuilderFeeBps,
      routeFeeBps: null,
      enabled: true,
      version: 1,
      policySource: "onchain",
      registry: devnet.manifest.contracts.builderRegistry.toLowerCase(),
      policyBlock: expect.stringMatching(/^[0-9]+$/),
      policyBlockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const block = await devnet.publicClient.getBlock({ blockNumber: BigInt(builder.policyBlock as string) });
    expect(block.hash).toBe(builder.policyBlockHash);
  });

  it("defaults the code to the key's workspace", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(((await response.json()) as { builder: { code: string } }).builder.code).toBe("junction-demo");
  });

  it("is 404 BUILDER_NOT_FOUND for a code not registered on chain, including case variants", async () => {
    for (const code of ["nobody-here", "Junction-Demo"]) {
      const response = await get({ code });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "BUILDER_NOT_FOUND" } });
    }
    // A workspace whose builder ID is assigned but not registered on chain.
    const fresh = await api.workspace({ activated: false });
    const response = await get({}, await api.key(fresh.id, ["tokens"]));
    expect(response.status).toBe(404);
  });

  it("is 400 for a malformed code or an unknown parameter", async () => {
    const queries: Record<string, string>[] = [
      { code: "ab" },
      { code: "bad code!" },
      { code: "junction-demo", verbose: "1" },
    ];
    for (const query of queries) {
      const response = await get(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "INVALID_REQUEST" } });
    }
  });

  it("needs a live key with the tokens scope", async () => {
    expect((await get({}, "")).status).toBe(401);
    expect((await get({}, "jct_not-a-key")).status).toBe(401);
    const workspace = await api.workspace();
    const receiptsOnly = await api.key(workspace.id, ["receipts"]);
    const response = await get({ code: "junction-demo" }, receiptsOnly);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
  });

  it("is 503 UPSTREAM_UNAVAILABLE when the node does not answer, without the node's words", async () => {
    const app = createApp((error) => {
      throw error;
    });
    const dead = createPublicClient({
      chain: junctionChain("http://127.0.0.1:9"),
      transport: http(undefined, { retryCount: 0 }),
    });
    registerProfileRoute(app, { ...api.deps, client: dead as never });
    const response = await app.request(`${PATH}?code=junction-demo`, { headers: { "x-api-key": key } });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: {
        code: "UPSTREAM_UNAVAILABLE",
        reason: "rpc-unavailable",
        message: "the chain node did not answer",
      },
    });
  });

  it("keeps a suspended builder readable, with enabled false and a bumped version", async () => {
    const { builderId } = devnet.manifest.junction.demoBuilder;
    await governance("setBuilderEnabled", [builderId, false]);
    try {
      const response = await get({ code: "junction-demo" });
      expect(response.status).toBe(200);
      const { builder } = (await response.json()) as { builder: { enabled: boolean; version: number } };
      expect(builder.enabled).toBe(false);
      expect(builder.version).toBe(2);
    } finally {
      await governance("setBuilderEnabled", [builderId, true]);
    }
  });

  it("is 503 REGISTRY_UNCOMMISSIONED once governance uncommissions the registry (last: it stays so)", async () => {
    await governance("setCommissioned", [false]);
    for (const code of ["junction-demo", "nobody-here"]) {
      const response = await get({ code });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: { code: "REGISTRY_UNCOMMISSIONED" } });
    }
  });
});
