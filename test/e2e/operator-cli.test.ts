import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builderKeys } from "../../src/auth/keys.ts";
import { partnerKeys } from "../../src/auth/partner-keys.ts";
import { PLANS } from "../../src/auth/plans.ts";
import { CHAIN_ID } from "../../src/chain/chain.ts";
import { openEmbeddedShared } from "../../src/store/embedded-shared.ts";
import { startTestDevnet, type TestDevnet } from "../devnet.ts";

/**
 * The operator CLI as an operator runs it: `node bin/junction.js ...` against the embedded database in a
 * data dir and the devnet found through its manifest there.
 */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

type Run = { code: number; stdout: string; stderr: string };

function junction(dataDir: string, ...args: string[]): Promise<Run> {
  return junctionWith({}, dataDir, ...args);
}

/** `junction` with some of the service's settings (`JUNCTION_...`) given. */
function junctionWith(settings: Record<string, string>, dataDir: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, JUNCTION_DATA_DIR: dataDir };
  // The service's configuration decides the database and chain: here the embedded ones in the data dir.
  for (const name of Object.keys(env)) {
    if (name.startsWith("JUNCTION_") && name !== "JUNCTION_DATA_DIR") delete env[name];
  }
  delete env.DATABASE_URL;
  Object.assign(env, settings);
  return new Promise((resolve) => {
    execFile(process.execPath, ["bin/junction.js", ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** `--json`: exactly one JSON object on stdout. */
// biome-ignore lint/suspicious/noExplicitAny: parsed CLI output, its shape is what the assertions check
function json(run: Run): Record<string, any> {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(run.stdout);
}

/** An operator error: one line on stderr, exit 1, nothing on stdout, no stack. */
function refused(run: Run, pattern: RegExp) {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(pattern);
}

const account = (index: number) => devnet.manifest.accounts[index]!.address;

describe("junction workspace and key commands", () => {
  it("creates a workspace, activates its code on chain through a signed registration, and manages keys", async () => {
    const dir = devnet.dataDir;
    const code = `cli-${randomBytes(4).toString("hex")}`;
    const created = json(
      await junction(dir, "workspace", "create", "--name", "Acme", "--code", code, "--json"),
    );
    expect(created.workspace).toMatchObject({ name: "Acme", code, activated: false });
    expect(created.next).toContain("junction workspace activate");
    refused(
      await junction(dir, "workspace", "create", "--name", "Copy", "--code", code, "--json"),
      new RegExp(`builder code ${code} already belongs to workspace ${created.workspace.id}`),
    );

    const tokensKey = json(
      await junction(
        dir,
        "key",
        "create",
        "--workspace",
        code,
        "--name",
        "ro",
        "--scopes",
        "tokens",
        "--json",
      ),
    );
    expect(tokensKey.key).toMatchObject({
      scopes: ["tokens"],
      expiresAt: null,
      workspaceId: created.workspace.id,
    });
    expect(tokensKey.key.secret).toMatch(new RegExp(`^${tokensKey.key.prefix}_`));

    refused(
      await junction(dir, "key", "create", "--workspace", code, "--name", "q", "--scopes", "quote", "--json"),
      /need the workspace's builder ID activated on chain first: .* not registered on chain yet/,
    );

    const owner = account(3);
    const activation = json(
      await junction(
        dir,
        "workspace",
        "activate",
        "--code",
        code,
        "--owner",
        owner,
        "--recipient",
        account(4),
        "--fee",
        "15",
        "--json",
      ),
    );
    expect(activation.transaction).toMatchObject({
      to: devnet.manifest.contracts.builderRegistry,
      value: "0",
      chainId: CHAIN_ID,
      from: owner,
    });
    expect(activation.simulation).toEqual({ ok: true });
    // The workspace shown is the one just bound to the owner.
    expect(activation.workspace).toMatchObject({ code, owner: owner.toLowerCase() });
    const wallet = devnet.wallet(3);
    const hash = await wallet.sendTransaction({
      account: wallet.account!,
      chain: wallet.chain,
      to: activation.transaction.to,
      data: activation.transaction.data,
      value: BigInt(activation.transaction.value),
    });
    expect((await devnet.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");

    const quoteKey = json(
      await junction(
        dir,
        "key",
        "create",
        "--workspace",
        created.workspace.id,
        "--name",
        "q",
        "--scopes",
        "quote,swap",
        "--expires",
        "30d",
        "--json",
      ),
    );
    expect(quoteKey.key.scopes).toEqual(["quote", "swap"]);
    expect(Date.parse(quoteKey.key.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const revoked = json(await junction(dir, "key", "revoke", quoteKey.key.id, "--json"));
    expect(revoked).toMatchObject({ key: { id: quoteKey.key.id, status: "revoked" }, alreadyRevoked: false });
    expect(json(await junction(dir, "key", "revoke", quoteKey.key.prefix, "--json")).alreadyRevoked).toBe(
      true,
    );

    const listing = await junction(dir, "key", "list", "--workspace", code, "--json");
    const keys = json(listing).keys as { id: string; status: string }[];
    expect(Object.fromEntries(keys.map((k) => [k.id, k.status]))).toEqual({
      [tokensKey.key.id]: "active",
      [quoteKey.key.id]: "revoked",
    });
    // Listings never carry a secret (nor its hash).
    for (const secret of [tokensKey.key.secret, quoteKey.key.secret])
      expect(listing.stdout).not.toContain(secret.slice(17));
    expect(listing.stdout).not.toMatch(/[0-9a-f]{64}/);

    const workspaces = json(await junction(dir, "workspace", "list", "--json")).workspaces as Record<
      string,
      unknown
    >[];
    expect(workspaces.find((w) => w.code === code)).toMatchObject({ activated: true, activeKeys: 1 });

    // The workspace is bound to the wallet that registered it: another wallet cannot take it over.
    refused(
      await junction(
        dir,
        "workspace",
        "activate",
        "--code",
        code,
        "--owner",
        account(5),
        "--recipient",
        account(5),
        "--fee",
        "1",
      ),
      new RegExp(`bound to wallet ${owner.toLowerCase()}; only that wallet's registration activates it`),
    );
    // Asked again with its own wallet, the registry says the code is taken (by this very registration).
    const again = json(
      await junction(
        dir,
        "workspace",
        "activate",
        "--code",
        code,
        "--owner",
        owner,
        "--recipient",
        account(5),
        "--fee",
        "1",
        "--json",
      ),
    );
    expect(again).toMatchObject({
      transaction: null,
      onChain: { registered: true, owner: owner.toLowerCase(), enabled: true },
    });
  }, 300_000); // about 25 CLI processes of ~2-4 s each; a loaded 2-core machine needs the headroom

  it("activates at once a workspace whose code is already registered and enabled", async () => {
    const dir = devnet.dataDir;
    const demo = devnet.manifest.junction.demoBuilder;
    json(await junction(dir, "workspace", "create", "--name", "Demo", "--code", demo.code, "--json"));
    const activation = json(
      await junction(
        dir,
        "workspace",
        "activate",
        "--code",
        demo.code,
        "--owner",
        demo.owner,
        "--recipient",
        demo.recipient,
        "--fee",
        "10",
        "--json",
      ),
    );
    expect(activation).toMatchObject({
      workspace: { code: demo.code, activated: true },
      transaction: null,
      onChain: { registered: true, owner: demo.owner.toLowerCase(), enabled: true },
    });
  });

  it("manages a workspace's webhook endpoints under the service's URL policy, secrets shown once", async () => {
    const dir = devnet.dataDir;
    const code = `hooks-${randomBytes(4).toString("hex")}`;
    const workspace = json(
      await junction(dir, "workspace", "create", "--name", "Hooks", "--code", code, "--json"),
    ).workspace;
    const hooks = (...args: string[]) => junction(dir, "webhooks", ...args, "--workspace", code, "--json");

    // The devnet's policy allows a receiver on a private address, over plain http.
    const url = "http://10.0.0.7:8080/junction/hooks";
    const added = json(
      await hooks("add", "--url", url, "--events", "settlement.finalized,settlement.reorged"),
    );
    expect(added).toMatchObject({
      workspace: { id: workspace.id, code },
      endpoint: {
        url,
        eventTypes: ["settlement.finalized", "settlement.reorged"],
        previousSecretValidUntil: null,
      },
    });
    expect(added.secret).toMatch(/^whsec_[0-9A-Za-z_-]{43}$/);
    const endpoint = added.endpoint.id as string;
    // The service's settings decide: where private addresses are not allowed, the CLI refuses them too.
    refused(
      await junctionWith(
        { JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "false" },
        dir,
        "webhooks",
        "add",
        "--workspace",
        code,
        "--url",
        url,
      ),
      /--url: a private or loopback address is not allowed/,
    );

    const listing = await hooks("list");
    expect(json(listing)).toEqual({ workspace: { id: workspace.id, code }, endpoints: [added.endpoint] });
    expect(listing.stdout).not.toContain(added.secret);

    // test and redeliver only queue in the outbox (no service runs here: the delivery stays pending).
    const tested = json(await hooks("test", "--endpoint", endpoint));
    expect(tested).toMatchObject({ endpointId: endpoint, eventId: expect.stringMatching(/^evt_test_/) });
    const log = json(await hooks("deliveries", "--endpoint", endpoint));
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        id: tested.deliveryId,
        eventId: tested.eventId,
        eventType: "webhook.test",
        status: "pending",
        attempts: 0,
        lastStatus: null,
      }),
    ]);
    expect(
      json(await hooks("redeliver", "--endpoint", endpoint, "--delivery", tested.deliveryId)),
    ).toMatchObject({ endpointId: endpoint, deliveryId: tested.deliveryId });
    refused(
      await hooks("redeliver", "--endpoint", endpoint, "--delivery", "no-such-delivery"),
      /no delivery with this id for this endpoint \(see junction webhooks deliveries/,
    );

    const rotated = json(await hooks("rotate", "--endpoint", endpoint));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    expect(Date.parse(rotated.endpoint.previousSecretValidUntil)).toBeGreaterThan(Date.now());

    expect(json(await hooks("remove", "--endpoint", endpoint))).toEqual({
      endpointId: endpoint,
      removed: true,
    });
    expect(json(await hooks("list")).endpoints).toEqual([]);
    refused(
      await hooks("remove", "--endpoint", endpoint),
      /no webhook endpoint with this id in this workspace \(see junction webhooks list/,
    );
    refused(
      await junction(dir, "webhooks", "list", "--workspace", "nobody-here"),
      /no workspace with id or builder code nobody-here/,
    );
  }, 300_000); // about 13 CLI processes, up to 7 s each on a loaded 2-core machine

  it("rejects bad flags with usage and exit 2", async () => {
    const dir = devnet.dataDir;
    const cases = [
      ["workspace", "create", "--name", "x"],
      ["workspace", "create", "--name", "x", "--code", "no spaces"],
      ["key", "create", "--workspace", "x", "--name", "k", "--scopes", "quote,admin"],
      ["key", "create", "--workspace", "x", "--name", "k", "--scopes", "tokens", "--expires", "soon"],
      [
        "workspace",
        "activate",
        "--code",
        "abc",
        "--owner",
        account(3),
        "--recipient",
        account(3),
        "--fee",
        "51",
      ],
      ["workspace", "list", "--verbose"],
      ["workspace", "plan", "--code", "abc", "--plan", "enterprise"],
      ["workspace", "plan", "--plan", "growth"],
      ["key", "revoke"],
      ["partner", "key", "create", "--name", "p", "--expires", "soon"],
      ["partner", "key", "revoke"],
      ["webhooks", "add", "--workspace", "x", "--url", "https://example.com", "--events", "settlement.paid"],
      ["webhooks", "add", "--workspace", "x"],
      ["webhooks", "test", "--workspace", "x"],
      ["webhooks", "redeliver", "--workspace", "x", "--endpoint", "we_1"],
      ["webhooks"],
    ];
    const runs = await Promise.all(cases.map((args) => junction(dir, ...args)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]!.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^junction: .*\n\nUsage:\n {2}junction /);
    });
  });

  it("issues, lists and revokes partner keys the running service accepts at once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "junction-cli-partner-"));
    const service = await openEmbeddedShared({ dataDir });
    try {
      const swap = json(
        await junction(dataDir, "partner", "key", "create", "--name", "backend", "--swap", "--json"),
      );
      expect(swap).toMatchObject({ key: { name: "backend", swap: true, expiresAt: null } });
      expect(swap.key.secret).toMatch(new RegExp(`^${swap.key.prefix}_`));
      expect(swap.key.prefix).toMatch(/^jpk_/);
      const quote = json(
        await junction(dataDir, "partner", "key", "create", "--name", "widget", "--expires", "12h", "--json"),
      );
      expect(quote.key.swap).toBe(false);
      expect(Date.parse(quote.key.expiresAt)).toBeGreaterThan(Date.now() + 11 * 3_600_000);
      expect(await partnerKeys.authenticate(service.db, swap.key.secret)).toEqual({
        keyId: swap.key.id,
        name: "backend",
        swap: true,
      });

      const revoked = json(await junction(dataDir, "partner", "key", "revoke", swap.key.prefix, "--json"));
      expect(revoked).toMatchObject({ key: { id: swap.key.id, status: "revoked" }, alreadyRevoked: false });
      expect(await partnerKeys.authenticate(service.db, swap.key.secret)).toEqual({
        failure: "revoked",
      });

      const listing = await junction(dataDir, "partner", "key", "list", "--json");
      const keys = json(listing).keys as { id: string; status: string; swap: boolean }[];
      expect(keys.map((k) => [k.id, k.status, k.swap])).toEqual([
        [quote.key.id, "active", false],
        [swap.key.id, "revoked", true],
      ]);
      for (const secret of [swap.key.secret, quote.key.secret])
        expect(listing.stdout).not.toContain(secret.slice(17));
      expect(listing.stdout).not.toMatch(/[0-9a-f]{64}/);
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reaches the running service's embedded database through its socket instead of opening the files", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "junction-cli-shared-"));
    const service = await openEmbeddedShared({ dataDir });
    try {
      const code = `svc-${randomBytes(4).toString("hex")}`;
      json(await junction(dataDir, "workspace", "create", "--name", "Shared", "--code", code, "--json"));
      const created = json(
        await junction(
          dataDir,
          "key",
          "create",
          "--workspace",
          code,
          "--name",
          "k",
          "--scopes",
          "tokens,receipts",
          "--json",
        ),
      );
      // The service sees the key at once, in its own process.
      expect(await builderKeys.authenticate(service.db, created.key.secret)).toMatchObject({
        keyId: created.key.id,
        scopes: ["tokens", "receipts"],
        builderCode: code,
      });
      // A plan change reaches the running service with the next request's key lookup.
      expect(
        json(await junction(dataDir, "workspace", "plan", "--code", code, "--plan", "growth", "--json")),
      ).toMatchObject({ previousPlan: "free", workspace: { code, plan: "growth" }, limits: PLANS.growth });
      expect(await builderKeys.authenticate(service.db, created.key.secret)).toMatchObject({
        plan: "growth",
      });
      refused(
        await junction(dataDir, "workspace", "plan", "--code", "nobody-here", "--plan", "free"),
        /no workspace has id or builder code nobody-here/,
      );
      // No devnet manifest in this data dir: the chain is unreachable, and the CLI says so.
      refused(
        await junction(dataDir, "key", "create", "--workspace", code, "--name", "q", "--scopes", "swap"),
        /registry could not be checked \(no devnet manifest/,
      );
      refused(
        await junction(
          dataDir,
          "workspace",
          "activate",
          "--code",
          code,
          "--owner",
          account(3),
          "--recipient",
          account(3),
          "--fee",
          "0",
        ),
        /cannot prepare the registration: no devnet manifest/,
      );
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
