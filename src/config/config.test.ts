import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

const load = (env: Record<string, string>) => loadConfig(env, "/srv/junction");

function rejects(env: Record<string, string>, setting: string, message: RegExp) {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe(setting);
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error(`expected ${setting} to be rejected`);
}

describe("loadConfig", () => {
  it("defaults to the embedded devnet on loopback ports 8787 and 8788", () => {
    expect(load({})).toEqual({
      host: "127.0.0.1",
      port: 8787,
      partnerPort: 8788,
      publicUrl: "http://127.0.0.1:8787",
      dataDir: "/srv/junction/data",
      logLevel: "info",
      drainMs: 0,
      rpcBatch: {},
      chain: { mode: "devnet", port: 8545, seed: 4663, blockTime: 2 },
      aggregators: { deadlineMs: 2500, a: { enabled: true }, b: { enabled: true } },
      transfers: { integrator: "junction" },
      webhooks: { allowPrivate: true, allowHttp: true, retryDivisor: 1 },
    });
  });

  it("binds the public origin to JUNCTION_PUBLIC_URL, or to the main listener's own address", () => {
    expect(load({ JUNCTION_PORT: "9000" }).publicUrl).toBe("http://127.0.0.1:9000");
    expect(load({ JUNCTION_HOST: "::1" }).publicUrl).toBe("http://[::1]:8787");
    expect(load({ JUNCTION_PUBLIC_URL: "https://Junction.Example:443/" }).publicUrl).toBe(
      "https://junction.example",
    );
    expect(load({ JUNCTION_PUBLIC_URL: "https://junction.example:8443" }).publicUrl).toBe(
      "https://junction.example:8443",
    );
    rejects({ JUNCTION_PUBLIC_URL: "junction.example" }, "JUNCTION_PUBLIC_URL", /URL/);
    rejects({ JUNCTION_PUBLIC_URL: "ftp://junction.example" }, "JUNCTION_PUBLIC_URL", /http/);
    rejects({ JUNCTION_PUBLIC_URL: "https://junction.example/portal" }, "JUNCTION_PUBLIC_URL", /origin/);
    rejects({ JUNCTION_PUBLIC_URL: "https://a:b@junction.example" }, "JUNCTION_PUBLIC_URL", /origin/);
  });

  it("reads the aggregators' deadline within its bounds", () => {
    expect(load({ JUNCTION_PROVIDER_DEADLINE_MS: "8000" }).aggregators.deadlineMs).toBe(8000);
    rejects({ JUNCTION_PROVIDER_DEADLINE_MS: "50" }, "JUNCTION_PROVIDER_DEADLINE_MS", /100 to 10000/);
    rejects({ JUNCTION_PROVIDER_DEADLINE_MS: "30000" }, "JUNCTION_PROVIDER_DEADLINE_MS", /got 30000/);
  });

  it("decides finality by the node's tag unless JUNCTION_FINALITY_CONFIRMATIONS names a count", () => {
    expect(load({}).finalityConfirmations).toBeUndefined();
    expect(load({ JUNCTION_FINALITY_CONFIRMATIONS: "12" }).finalityConfirmations).toBe(12);
    rejects({ JUNCTION_FINALITY_CONFIRMATIONS: "0" }, "JUNCTION_FINALITY_CONFIRMATIONS", /1 to 100000/);
    rejects({ JUNCTION_FINALITY_CONFIRMATIONS: "-3" }, "JUNCTION_FINALITY_CONFIRMATIONS", /1 to 100000/);
  });

  it("reads what one request to the node may carry, on a real chain and the devnet alike", () => {
    const rpc = { JUNCTION_RPC_URL: "https://rpc.example/4663", JUNCTION_DEPLOYMENT: "d.json" };
    expect(load(rpc).rpcBatch).toEqual({});
    expect(load({ ...rpc, JUNCTION_RPC_MAX_BATCH: "1" }).rpcBatch).toEqual({ maxBatch: 1 });
    expect(load({ JUNCTION_RPC_MAX_BATCH: "10", JUNCTION_RPC_MAX_BATCH_BYTES: "500000" }).rpcBatch).toEqual({
      maxBatch: 10,
      maxBatchBytes: 500_000,
    });
    rejects({ JUNCTION_RPC_MAX_BATCH: "0" }, "JUNCTION_RPC_MAX_BATCH", /1 to 1000/);
    rejects({ JUNCTION_RPC_MAX_BATCH: "ten" }, "JUNCTION_RPC_MAX_BATCH", /1 to 1000/);
    rejects({ JUNCTION_RPC_MAX_BATCH_BYTES: "100" }, "JUNCTION_RPC_MAX_BATCH_BYTES", /4096 to 100000000/);
    expect(load({ ...rpc, JUNCTION_RPC_MAX_LOG_RANGE: "2000" }).rpcBatch).toEqual({ maxLogRange: 2_000 });
    rejects({ JUNCTION_RPC_MAX_LOG_RANGE: "0" }, "JUNCTION_RPC_MAX_LOG_RANGE", /1 to 10000000/);
  });

  it("keeps serving 10 s after turning not ready against a real chain, at once on the devnet, as set", () => {
    const rpc = { JUNCTION_RPC_URL: "https://rpc.example/4663", JUNCTION_DEPLOYMENT: "d.json" };
    expect(load(rpc).drainMs).toBe(10_000);
    expect(load({ ...rpc, JUNCTION_DRAIN_MS: "0" }).drainMs).toBe(0);
    expect(load({ JUNCTION_DRAIN_MS: "1500" }).drainMs).toBe(1500);
    rejects({ JUNCTION_DRAIN_MS: "600000" }, "JUNCTION_DRAIN_MS", /0 to 120000/);
    rejects({ JUNCTION_DRAIN_MS: "-1" }, "JUNCTION_DRAIN_MS", /integer/);
  });

  it("allows private and plain-http webhook endpoints on the devnet only, unless the operator allows them", () => {
    const rpc = { JUNCTION_RPC_URL: "https://rpc.example/4663", JUNCTION_DEPLOYMENT: "d.json" };
    expect(load(rpc).webhooks).toEqual({ allowPrivate: false, allowHttp: false, retryDivisor: 1 });
    expect(load({ ...rpc, JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "true" }).webhooks).toMatchObject({
      allowPrivate: true,
      allowHttp: true,
    });
    expect(load({ JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "false" }).webhooks).toMatchObject({
      allowPrivate: false,
      allowHttp: true,
    });
    expect(load({ JUNCTION_WEBHOOK_RETRY_DIVISOR: "1000" }).webhooks.retryDivisor).toBe(1000);
    rejects({ JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "yes" }, "JUNCTION_WEBHOOKS_ALLOW_PRIVATE", /true or false/);
    rejects({ JUNCTION_WEBHOOK_RETRY_DIVISOR: "0" }, "JUNCTION_WEBHOOK_RETRY_DIVISOR", /1 to 100000/);
  });

  it("reads the bridge providers of transfer estimates: URL, optional key, integrator name", () => {
    const config = load({
      JUNCTION_BRIDGE_A_URL: "https://li.quest",
      JUNCTION_BRIDGE_A_API_KEY: "key-a",
      JUNCTION_BRIDGE_B_URL: "https://app.across.to",
      JUNCTION_TRANSFER_INTEGRATOR: "acme-wallet",
    });
    expect(config.transfers).toEqual({
      integrator: "acme-wallet",
      bridgeA: { url: "https://li.quest", apiKey: "key-a" },
      bridgeB: { url: "https://app.across.to" },
    });
    rejects({ JUNCTION_BRIDGE_B_API_KEY: "k" }, "JUNCTION_BRIDGE_B_API_KEY", /only applies with/);
    rejects({ JUNCTION_BRIDGE_A_URL: "ftp://x" }, "JUNCTION_BRIDGE_A_URL", /http/);
    rejects({ JUNCTION_TRANSFER_INTEGRATOR: "a b" }, "JUNCTION_TRANSFER_INTEGRATOR", /must be/);
  });

  it("reads a real chain: RPC, transport kind, backup and deployment file", () => {
    const config = load({
      JUNCTION_RPC_URL: "https://rpc.example/4663",
      JUNCTION_RPC_KIND: "public",
      JUNCTION_RPC_BACKUP_URL: "https://backup.example/4663",
      JUNCTION_DEPLOYMENT: "deployment.json",
      DATABASE_URL: "postgres://127.0.0.1:5432/test",
    });
    expect(config.chain).toEqual({
      mode: "rpc",
      url: "https://rpc.example/4663",
      kind: "public",
      backupUrl: "https://backup.example/4663",
      deploymentPath: "/srv/junction/deployment.json",
    });
    expect(config.databaseUrl).toBe("postgres://127.0.0.1:5432/test");
  });

  it("reads the node's WebSocket endpoint for new heads: ws:// or wss:// only, with JUNCTION_RPC_URL only", () => {
    const rpc = { JUNCTION_RPC_URL: "https://rpc.example/4663", JUNCTION_DEPLOYMENT: "d.json" };
    expect(load(rpc).chain).not.toHaveProperty("wsUrl");
    const secret = "wss://user:s3cret@ws.example/4663/key-abc";
    expect(load({ ...rpc, JUNCTION_RPC_WS_URL: secret }).chain).toMatchObject({ wsUrl: secret });
    expect(load({ ...rpc, JUNCTION_RPC_WS_URL: "ws://127.0.0.1:8546" }).chain).toMatchObject({
      wsUrl: "ws://127.0.0.1:8546",
    });
    expect(load({ ...rpc, JUNCTION_RPC_WS_URL: "  " }).chain).not.toHaveProperty("wsUrl");
    rejects({ ...rpc, JUNCTION_RPC_WS_URL: "https://rpc.example/4663" }, "JUNCTION_RPC_WS_URL", /ws, wss/);
    rejects({ ...rpc, JUNCTION_RPC_WS_URL: "ws.example:8546" }, "JUNCTION_RPC_WS_URL", /ws, wss|URL/);
    rejects({ ...rpc, JUNCTION_RPC_WS_URL: "not a url" }, "JUNCTION_RPC_WS_URL", /must be a URL/);
    rejects({ JUNCTION_RPC_WS_URL: "ws://127.0.0.1:8545" }, "JUNCTION_RPC_WS_URL", /only applies with/);
    // The message names the setting, never the value (a URL may carry a credential).
    try {
      load({ ...rpc, JUNCTION_RPC_WS_URL: "https://user:s3cret@ws.example" });
      throw new Error("expected a ConfigError");
    } catch (error) {
      expect((error as Error).message).not.toContain("s3cret");
    }
  });

  it("names the setting that is wrong", () => {
    rejects({ JUNCTION_PORT: "80a" }, "JUNCTION_PORT", /integer from 1 to 65535/);
    rejects({ JUNCTION_PORT: "70000" }, "JUNCTION_PORT", /got 70000/);
    rejects({ JUNCTION_PARTNER_PORT: "8787" }, "JUNCTION_PARTNER_PORT", /must differ/);
    rejects({ DATABASE_URL: "mysql://x" }, "DATABASE_URL", /postgres/);
    rejects({ JUNCTION_LOG_LEVEL: "loud" }, "JUNCTION_LOG_LEVEL", /one of/);
    rejects(
      { JUNCTION_RPC_URL: "not a url", JUNCTION_DEPLOYMENT: "d.json" },
      "JUNCTION_RPC_URL",
      /must be a URL/,
    );
    rejects({ JUNCTION_RPC_URL: "ftp://x", JUNCTION_DEPLOYMENT: "d.json" }, "JUNCTION_RPC_URL", /http/);
    rejects({ JUNCTION_RPC_URL: "http://x" }, "JUNCTION_DEPLOYMENT", /required/);
    rejects(
      { JUNCTION_RPC_URL: "http://x", JUNCTION_DEPLOYMENT: "d", JUNCTION_RPC_KIND: "fast" },
      "JUNCTION_RPC_KIND",
      /private/,
    );
    rejects({ JUNCTION_DEVNET_SEED: "-1" }, "JUNCTION_DEVNET_SEED", /integer/);
  });

  it("refuses a backup for a private transport (it never falls back)", () => {
    rejects(
      { JUNCTION_RPC_URL: "http://x", JUNCTION_DEPLOYMENT: "d", JUNCTION_RPC_BACKUP_URL: "http://y" },
      "JUNCTION_RPC_BACKUP_URL",
      /never falls back/,
    );
  });

  it("refuses settings that do not apply to the chosen mode, and unknown JUNCTION_ names", () => {
    rejects({ JUNCTION_DEPLOYMENT: "d.json" }, "JUNCTION_DEPLOYMENT", /only applies with JUNCTION_RPC_URL/);
    rejects(
      { JUNCTION_RPC_URL: "http://x", JUNCTION_DEPLOYMENT: "d", JUNCTION_DEVNET_SEED: "1" },
      "JUNCTION_DEVNET_SEED",
      /devnet/,
    );
    rejects({ JUNCTION_PROT: "1" }, "JUNCTION_PROT", /unknown setting/);
  });

  it("accepts and ignores junction deploy's secrets in the environment, never in a settings file", () => {
    const secrets = { JUNCTION_DEPLOYER_KEY: `0x${"ab".repeat(32)}`, JUNCTION_KEYSTORE_PASSWORD: "pw" };
    const config = load({ JUNCTION_RPC_URL: "http://node:8545", JUNCTION_DEPLOYMENT: "d.json", ...secrets });
    expect(config.chain).toMatchObject({ mode: "rpc", url: "http://node:8545" });
    expect(JSON.stringify(config)).not.toContain("ab".repeat(32));

    const dir = mkdtempSync(join(tmpdir(), "junction-config-"));
    const file = join(dir, "junction.json");
    writeFileSync(file, JSON.stringify({ JUNCTION_DEPLOYER_KEY: secrets.JUNCTION_DEPLOYER_KEY }));
    expect(() => loadConfig({ JUNCTION_CONFIG: file }, dir)).toThrow(
      /JUNCTION_DEPLOYER_KEY: a secret of junction deploy, read from the environment only/,
    );
  });

  it("reads a JSON config file, with the environment taking precedence", () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-config-"));
    const file = join(dir, "junction.json");
    writeFileSync(
      file,
      JSON.stringify({ JUNCTION_PORT: 9000, JUNCTION_PARTNER_PORT: "9001", JUNCTION_DEVNET_SEED: 7 }),
    );
    const config = loadConfig({ JUNCTION_CONFIG: file, JUNCTION_PORT: "9100" }, dir);
    expect(config.port).toBe(9100);
    expect(config.partnerPort).toBe(9001);
    expect(config.chain).toMatchObject({ mode: "devnet", seed: 7 });

    writeFileSync(file, JSON.stringify({ JUNCTION_PORTT: 1 }));
    expect(() => loadConfig({ JUNCTION_CONFIG: file }, dir)).toThrow(/JUNCTION_PORTT: unknown setting/);
    expect(() => loadConfig({ JUNCTION_CONFIG: join(dir, "missing.json") }, dir)).toThrow(
      /JUNCTION_CONFIG: cannot read/,
    );
  });
});
