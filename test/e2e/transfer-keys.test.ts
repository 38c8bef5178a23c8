import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTransferClient, JunctionApiError } from "../../packages/sdk/src/index.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";
import { type Json, transferEstimates } from "./transfer-estimates.ts";

/**
 * Transfer estimates' key gate as a customer meets it, black-box against `junction start` on the devnet:
 * the demo key, every refusal (401, 403), the per-key rate limit, and the SDK's typed client. The requests
 * and answers themselves: transfers.test.ts.
 */
let service: SpawnedService;
let manifest: Manifest;
const estimate = transferEstimates(
  () => service,
  () => manifest,
);

beforeAll(async () => {
  service = await spawnService();
  manifest = service.manifest();
}, 120_000);
afterAll(() => service?.kill());

describe("transfer estimates: keys", () => {
  it("lists the demo customer key and the stand-ins in the manifest, and answers it", async () => {
    expect(manifest.demoTransfers!.keys.estimates).toMatch(/^jtk_/);
    expect(Object.keys(manifest.demoTransfers!.providers).sort()).toEqual(["bridge-a", "bridge-b"]);
    const config = (await (await fetch(`${service.baseUrl}/api/v2/config`)).json()) as {
      transfers: { providers: { id: string; enabled: boolean; standInUrl?: string }[] };
    };
    expect(config.transfers.providers).toEqual([
      { id: "bridge-a", enabled: true, standInUrl: manifest.demoTransfers!.providers["bridge-a"] },
      { id: "bridge-b", enabled: true, standInUrl: manifest.demoTransfers!.providers["bridge-b"] },
    ]);
    const { status } = await estimate({ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "1" });
    expect(status).toBe(200);
  });

  it("refuses a missing, malformed, foreign or revoked key (401) and a key without the scope (403)", async () => {
    const query = { inputAsset: "ETH:1", outputAsset: "ETH:8453", amount: "1" };
    expect((await estimate(query, null)).status).toBe(401);
    expect((await estimate(query, "jtk_nope")).status).toBe(401);
    expect((await estimate(query, manifest.demoWorkspace!.keys.all)).status).toBe(401);
    expect((await estimate(query, manifest.demoPartner!.keys.swap)).status).toBe(401);

    const created = await service.cli([
      "transfer",
      "key",
      "create",
      "--name",
      "ops",
      "--scopes",
      "transfers",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const reserved_ = JSON.parse(created.stdout).key;
    expect(reserved_.scopes).toEqual(["transfers"]);
    const forbidden = await estimate(query, reserved_.secret);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("FORBIDDEN");

    const full = JSON.parse(
      (
        await service.cli([
          "transfer",
          "key",
          "create",
          "--name",
          "acme",
          "--scopes",
          "estimates,transfers",
          "--json",
        ])
      ).stdout,
    ).key;
    expect((await estimate(query, full.secret)).status).toBe(200);
    const listed = await service.cli(["transfer", "key", "list", "--json"]);
    expect(listed.stdout).not.toContain(full.secret.slice(-38));
    expect(JSON.parse(listed.stdout).keys.find((k: Json) => k.id === full.id)).toMatchObject({
      prefix: full.prefix,
      status: "active",
      scopes: ["estimates", "transfers"],
    });
    expect((await service.cli(["transfer", "key", "revoke", full.prefix, "--json"])).code).toBe(0);
    const revoked = await estimate(query, full.secret);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toMatch(/revoked/);
    expect(JSON.stringify(revoked.body)).not.toContain(full.secret);

    const usage = await service.cli(["transfer", "key", "create", "--name", "x", "--scopes", "swap"]);
    expect(usage.code).toBe(2);
  });

  it("limits each key to 60 estimates a minute (429 with Retry-After); a refused or invalid request spends nothing", async () => {
    const key = JSON.parse(
      (await service.cli(["transfer", "key", "create", "--name", "rate", "--scopes", "estimates", "--json"]))
        .stdout,
    ).key.secret;
    const minute = () => Math.floor(Date.now() / 60_000);
    const started = minute();
    for (let i = 0; i < 5; i++) expect((await estimate({ amount: "1", extra: "x" }, key)).status).toBe(400);
    const query = { inputAsset: "STABLE:1", outputAsset: "STABLE:8453", amount: "100" };
    // Estimate until refused. The minute window may roll over once mid-loop (a loaded machine takes many
    // seconds for 61 estimates): then the new window takes 60 more before refusing, never fewer, and a
    // second rollover would take a minute.
    let passed = 0;
    let refused: Awaited<ReturnType<typeof estimate>> | undefined;
    while (!refused && passed <= 121) {
      const response = await estimate(query, key);
      if (response.status === 429) refused = response;
      else {
        expect(response.status).toBe(200);
        passed++;
      }
    }
    // Within one window exactly 60 pass: the invalid requests and the refusals spent nothing.
    if (minute() === started) expect(passed).toBe(60);
    else expect(passed).toBeGreaterThanOrEqual(60);
    expect(refused?.body.error.code).toBe("RATE_LIMITED");
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("transfer estimates: the SDK", () => {
  it("reads an estimate through the typed client, and throws a refusal as a JunctionApiError", async () => {
    const client = createTransferClient({
      baseUrl: service.baseUrl,
      apiKey: manifest.demoTransfers!.keys.estimates,
    });
    const estimate = await client.routes({
      inputAsset: "STABLE:1",
      outputAsset: "ETH:42161",
      amount: "5000",
    });
    expect(estimate.status).toBe("quoted");
    expect(estimate.routes.map((r) => r.provider)).toEqual(["bridge-a", "bridge-b"]);
    const refused = await client.routes({ amount: "1" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JunctionApiError);
    expect((refused as JunctionApiError).code).toBe("INVALID_REQUEST");
  });
});
