import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { DEFAULT_DEVNET_SEED, DEPLOY_SECRETS, SETTINGS, type SettingName } from "./settings.ts";

/**
 * Each third-party provider's deadline per quote (docs/rules.md, ours: aggregators): asked in parallel with
 * Junction's own search, a provider that has not answered by then is left out of the comparison. Well under
 * the 25 s request deadline even at its maximum.
 */
export const PROVIDER_DEADLINE_MS = { default: 2_500, min: 100, max: 10_000 } as const;

/**
 * How long a stopping process keeps serving once its readiness turns 503 (docs/rules.md, ours: shutdown):
 * longer than a load balancer's usual 5 s check interval, so it sees the 503 while requests still succeed.
 * The embedded devnet has no balancer in front of it: it stops at once unless told otherwise.
 */
/**
 * Bounds of JUNCTION_RPC_MAX_BATCH (calls per request), JUNCTION_RPC_MAX_BATCH_BYTES, JUNCTION_RPC_MAX_RPS
 * and JUNCTION_RPC_MAX_LOG_RANGE (blocks per `eth_getLogs`).
 */
export const RPC_BATCH_SETTINGS = {
  calls: { min: 1, max: 1_000 },
  bytes: { min: 4_096, max: 100_000_000 },
  rps: { min: 1, max: 100_000 },
  logRange: { min: 1, max: 10_000_000 },
} as const;

export const DRAIN_MS = { default: 10_000, devnet: 0, min: 0, max: 120_000 } as const;

export type ChainConfig =
  | { mode: "devnet"; port: number; seed: number; blockTime: number }
  | {
      mode: "rpc";
      url: string;
      /** A private transport never falls back to a public one (docs/rules.md, comparison rule 15). */
      kind: "private" | "public";
      backupUrl?: string;
      /**
       * The node's WebSocket endpoint: followed pool state subscribes to its new heads (reads stay on
       * `url`). May carry a credential: never logged.
       */
      wsUrl?: string;
      deploymentPath: string;
    };

/** One configured bridge provider: where its API is, and its credential (settings only, never shown). */
export type BridgeProviderConfig = { url: string; apiKey?: string };

/** The third-party swap aggregators: where their APIs are, their credentials and the contracts they must use. */
export type AggregatorsConfig = {
  /** Each aggregator's deadline per quote (docs/rules.md, ours: aggregators). */
  deadlineMs: number;
  a: { enabled: boolean; api?: { url: string; apiKey?: string; router: `0x${string}` } };
  b: {
    enabled: boolean;
    api?: { url: string; apiKey?: string; allowanceHolder: `0x${string}`; settlerRegistry: `0x${string}` };
  };
};

export type TransfersConfig = {
  integrator: string;
  bridgeA?: BridgeProviderConfig;
  bridgeB?: BridgeProviderConfig;
};

export type Config = {
  host: string;
  /**
   * Unset: the node's `finalized` block is the finalized head; N: block `latest − N` is (docs/rules.md,
   * ours: finality).
   */
  finalityConfirmations?: number;
  /**
   * What one request to the node may carry, set up front (JUNCTION_RPC_MAX_BATCH,
   * JUNCTION_RPC_MAX_BATCH_BYTES, JUNCTION_RPC_MAX_LOG_RANGE) and how many a second (JUNCTION_RPC_MAX_RPS);
   * unset, the defaults, lowered by what the node refuses.
   */
  rpcBatch: { maxBatch?: number; maxBatchBytes?: number; maxRps?: number; maxLogRange?: number };
  port: number;
  partnerPort: number;
  /**
   * The origin browsers reach {base_url} at: portal sign-in messages must name it and portal changes must
   * come from it (docs/rules.md, ours: portal sign-in). Never taken from a request's headers.
   */
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace";
  /** How long a stopping process keeps serving after turning not ready (see DRAIN_MS). */
  drainMs: number;
  chain: ChainConfig;
  aggregators: AggregatorsConfig;
  transfers: TransfersConfig;
  /**
   * Where webhook endpoints may point (src/events/webhook-endpoints.ts): private addresses and plain http
   * only when allowed (the devnet's default); `retryDivisor` shortens the retry schedule (tests).
   */
  webhooks: { allowPrivate: boolean; allowHttp: boolean; retryDivisor: number };
};

/** A setting that cannot be used; `setting` names it so the operator knows what to fix. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}

type Source = Record<string, string | undefined>;

/** Loads and validates configuration; throws a ConfigError naming the first bad setting. */
export function loadConfig(env: Source = process.env, cwd = process.cwd()): Config {
  const source = withConfigFile(env, cwd);
  for (const name of Object.keys(source)) {
    if (name.startsWith("JUNCTION_") && !(name in SETTINGS) && !(name in DEPLOY_SECRETS)) {
      throw new ConfigError(name, `unknown setting (known: ${Object.keys(SETTINGS).join(", ")})`);
    }
  }
  const get = (name: SettingName) => {
    const value = source[name]?.trim();
    return value === "" ? undefined : value;
  };

  const host = get("JUNCTION_HOST") ?? "127.0.0.1";
  const port = integer(get, "JUNCTION_PORT", 8787, 1, 65535);
  const partnerPort = integer(get, "JUNCTION_PARTNER_PORT", 8788, 1, 65535);
  if (port === partnerPort)
    throw new ConfigError("JUNCTION_PARTNER_PORT", `must differ from JUNCTION_PORT (${port})`);
  const publicUrl = publicOrigin(get("JUNCTION_PUBLIC_URL"), host, port);
  const dataDir = resolve(cwd, get("JUNCTION_DATA_DIR") ?? "data");

  const databaseUrl = get("DATABASE_URL");
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL", "must be a postgres:// or postgresql:// URL");
  }

  const logLevel = get("JUNCTION_LOG_LEVEL") ?? "info";
  const levels = ["fatal", "error", "warn", "info", "debug", "trace"] as const;
  if (!levels.includes(logLevel as never))
    throw new ConfigError("JUNCTION_LOG_LEVEL", `must be one of ${levels.join(", ")}`);

  const chain = chainConfig(get, cwd);
  const finalityConfirmations = get("JUNCTION_FINALITY_CONFIRMATIONS")
    ? integer(get, "JUNCTION_FINALITY_CONFIRMATIONS", 0, 1, 100_000)
    : undefined;
  const batchSetting = (name: SettingName, bounds: { min: number; max: number }) =>
    get(name) === undefined ? undefined : integer(get, name, 0, bounds.min, bounds.max);
  const maxBatch = batchSetting("JUNCTION_RPC_MAX_BATCH", RPC_BATCH_SETTINGS.calls);
  const maxBatchBytes = batchSetting("JUNCTION_RPC_MAX_BATCH_BYTES", RPC_BATCH_SETTINGS.bytes);
  const maxRps = batchSetting("JUNCTION_RPC_MAX_RPS", RPC_BATCH_SETTINGS.rps);
  const maxLogRange = batchSetting("JUNCTION_RPC_MAX_LOG_RANGE", RPC_BATCH_SETTINGS.logRange);
  return {
    host,
    ...(finalityConfirmations !== undefined ? { finalityConfirmations } : {}),
    rpcBatch: {
      ...(maxBatch !== undefined ? { maxBatch } : {}),
      ...(maxBatchBytes !== undefined ? { maxBatchBytes } : {}),
      ...(maxRps !== undefined ? { maxRps } : {}),
      ...(maxLogRange !== undefined ? { maxLogRange } : {}),
    },
    port,
    partnerPort,
    publicUrl,
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    logLevel: logLevel as Config["logLevel"],
    drainMs: integer(
      get,
      "JUNCTION_DRAIN_MS",
      chain.mode === "devnet" ? DRAIN_MS.devnet : DRAIN_MS.default,
      DRAIN_MS.min,
      DRAIN_MS.max,
    ),
    chain,
    aggregators: aggregatorsConfig(get),
    transfers: transfersConfig(get),
    webhooks: webhooksConfig(get, chain.mode === "devnet"),
  };
}

function webhooksConfig(get: (name: SettingName) => string | undefined, devnet: boolean): Config["webhooks"] {
  const raw = get("JUNCTION_WEBHOOKS_ALLOW_PRIVATE") ?? String(devnet);
  if (raw !== "true" && raw !== "false")
    throw new ConfigError("JUNCTION_WEBHOOKS_ALLOW_PRIVATE", "must be true or false");
  const allowPrivate = raw === "true";
  // Receivers inside the operator's own network are its call, plain http included.
  return {
    allowPrivate,
    allowHttp: devnet || allowPrivate,
    retryDivisor: integer(get, "JUNCTION_WEBHOOK_RETRY_DIVISOR", 1, 1, 100_000),
  };
}

function aggregatorsConfig(get: (name: SettingName) => string | undefined): AggregatorsConfig {
  const enabled = (name: "JUNCTION_AGGREGATOR_A_ENABLED" | "JUNCTION_AGGREGATOR_B_ENABLED") => {
    const value = get(name) ?? "true";
    if (value !== "true" && value !== "false") throw new ConfigError(name, "must be true or false");
    return value === "true";
  };
  const address = (name: SettingName, urlName: SettingName): `0x${string}` => {
    const value = get(name);
    if (!value) throw new ConfigError(name, `required with ${urlName}`);
    if (!/^0x[0-9a-fA-F]{40}$/.test(value))
      throw new ConfigError(name, "must be a 0x-prefixed 20-byte address");
    return value as `0x${string}`;
  };
  const only = (names: SettingName[], urlName: SettingName) => {
    for (const name of names) if (get(name)) throw new ConfigError(name, `only applies with ${urlName}`);
  };
  const aUrl = get("JUNCTION_AGGREGATOR_A_URL");
  const bUrl = get("JUNCTION_AGGREGATOR_B_URL");
  if (aUrl) urlSetting("JUNCTION_AGGREGATOR_A_URL", aUrl, HTTP);
  else only(["JUNCTION_AGGREGATOR_A_API_KEY", "JUNCTION_AGGREGATOR_A_ROUTER"], "JUNCTION_AGGREGATOR_A_URL");
  if (bUrl) urlSetting("JUNCTION_AGGREGATOR_B_URL", bUrl, HTTP);
  else
    only(
      [
        "JUNCTION_AGGREGATOR_B_API_KEY",
        "JUNCTION_AGGREGATOR_B_ALLOWANCE_HOLDER",
        "JUNCTION_AGGREGATOR_B_SETTLER_REGISTRY",
      ],
      "JUNCTION_AGGREGATOR_B_URL",
    );
  const aKey = get("JUNCTION_AGGREGATOR_A_API_KEY");
  const bKey = get("JUNCTION_AGGREGATOR_B_API_KEY");
  return {
    deadlineMs: integer(
      get,
      "JUNCTION_PROVIDER_DEADLINE_MS",
      PROVIDER_DEADLINE_MS.default,
      PROVIDER_DEADLINE_MS.min,
      PROVIDER_DEADLINE_MS.max,
    ),
    a: {
      enabled: enabled("JUNCTION_AGGREGATOR_A_ENABLED"),
      ...(aUrl
        ? {
            api: {
              url: aUrl,
              ...(aKey ? { apiKey: aKey } : {}),
              router: address("JUNCTION_AGGREGATOR_A_ROUTER", "JUNCTION_AGGREGATOR_A_URL"),
            },
          }
        : {}),
    },
    b: {
      enabled: enabled("JUNCTION_AGGREGATOR_B_ENABLED"),
      ...(bUrl
        ? {
            api: {
              url: bUrl,
              ...(bKey ? { apiKey: bKey } : {}),
              allowanceHolder: address("JUNCTION_AGGREGATOR_B_ALLOWANCE_HOLDER", "JUNCTION_AGGREGATOR_B_URL"),
              settlerRegistry: address("JUNCTION_AGGREGATOR_B_SETTLER_REGISTRY", "JUNCTION_AGGREGATOR_B_URL"),
            },
          }
        : {}),
    },
  };
}

function transfersConfig(get: (name: SettingName) => string | undefined): TransfersConfig {
  const integrator = get("JUNCTION_TRANSFER_INTEGRATOR") ?? "junction";
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(integrator))
    throw new ConfigError("JUNCTION_TRANSFER_INTEGRATOR", "must be 1 to 64 of A-Z a-z 0-9 . _ -");
  const provider = (
    urlName: "JUNCTION_BRIDGE_A_URL" | "JUNCTION_BRIDGE_B_URL",
    keyName: "JUNCTION_BRIDGE_A_API_KEY" | "JUNCTION_BRIDGE_B_API_KEY",
  ): BridgeProviderConfig | undefined => {
    const url = get(urlName);
    const apiKey = get(keyName);
    if (!url) {
      if (apiKey) throw new ConfigError(keyName, `only applies with ${urlName}`);
      return undefined;
    }
    urlSetting(urlName, url, HTTP);
    return { url, ...(apiKey ? { apiKey } : {}) };
  };
  const bridgeA = provider("JUNCTION_BRIDGE_A_URL", "JUNCTION_BRIDGE_A_API_KEY");
  const bridgeB = provider("JUNCTION_BRIDGE_B_URL", "JUNCTION_BRIDGE_B_API_KEY");
  return { integrator, ...(bridgeA ? { bridgeA } : {}), ...(bridgeB ? { bridgeB } : {}) };
}

/** A URL setting whose scheme is one of `schemes` (e.g. `["http", "https"]`). */
function urlSetting(name: SettingName, value: string, schemes: readonly string[]): void {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, "must be a URL");
  }
  if (!schemes.includes(parsed.protocol.slice(0, -1)))
    throw new ConfigError(name, `must be a URL with scheme ${schemes.join(", ")}`);
}

const HTTP = ["http", "https"] as const;

/**
 * JUNCTION_PUBLIC_URL as an origin (`new URL(...).origin`: no path, default port dropped), or the main
 * listener's own `http://host:port` when unset (an IPv6 host in brackets).
 */
function publicOrigin(value: string | undefined, host: string, port: number): string {
  if (value === undefined) return new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}`).origin;
  urlSetting("JUNCTION_PUBLIC_URL", value, HTTP);
  const url = new URL(value);
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash)
    throw new ConfigError("JUNCTION_PUBLIC_URL", "must be an origin, scheme://host[:port], without a path");
  return url.origin;
}
const RPC = ["http", "https", "ws", "wss"] as const;
const WS = ["ws", "wss"] as const;

function chainConfig(get: (name: SettingName) => string | undefined, cwd: string): ChainConfig {
  const url = get("JUNCTION_RPC_URL");
  if (!url) {
    for (const name of [
      "JUNCTION_RPC_KIND",
      "JUNCTION_RPC_BACKUP_URL",
      "JUNCTION_RPC_WS_URL",
      "JUNCTION_DEPLOYMENT",
    ] as const) {
      if (get(name))
        throw new ConfigError(name, "only applies with JUNCTION_RPC_URL (unset runs the embedded devnet)");
    }
    return {
      mode: "devnet",
      port: integer(get, "JUNCTION_DEVNET_PORT", 8545, 0, 65535),
      seed: integer(get, "JUNCTION_DEVNET_SEED", DEFAULT_DEVNET_SEED, 0, 2 ** 32 - 1),
      blockTime: integer(get, "JUNCTION_DEVNET_BLOCK_TIME", 2, 0, 3600),
    };
  }
  for (const name of [
    "JUNCTION_DEVNET_PORT",
    "JUNCTION_DEVNET_SEED",
    "JUNCTION_DEVNET_BLOCK_TIME",
  ] as const) {
    if (get(name))
      throw new ConfigError(name, "only applies to the embedded devnet; unset JUNCTION_RPC_URL to use it");
  }
  urlSetting("JUNCTION_RPC_URL", url, RPC);
  const kind = get("JUNCTION_RPC_KIND") ?? "private";
  if (kind !== "private" && kind !== "public")
    throw new ConfigError("JUNCTION_RPC_KIND", "must be `private` or `public`");
  const backupUrl = get("JUNCTION_RPC_BACKUP_URL");
  if (backupUrl) {
    if (kind === "private") {
      throw new ConfigError(
        "JUNCTION_RPC_BACKUP_URL",
        "a private transport never falls back; set JUNCTION_RPC_KIND=public",
      );
    }
    urlSetting("JUNCTION_RPC_BACKUP_URL", backupUrl, RPC);
  }
  const wsUrl = get("JUNCTION_RPC_WS_URL");
  if (wsUrl) urlSetting("JUNCTION_RPC_WS_URL", wsUrl, WS);
  const deployment = get("JUNCTION_DEPLOYMENT");
  if (!deployment)
    throw new ConfigError(
      "JUNCTION_DEPLOYMENT",
      "required with JUNCTION_RPC_URL: the deployment file of contract addresses",
    );
  return {
    mode: "rpc",
    url,
    kind,
    ...(backupUrl ? { backupUrl } : {}),
    ...(wsUrl ? { wsUrl } : {}),
    deploymentPath: resolve(cwd, deployment),
  };
}

function integer(
  get: (name: SettingName) => string | undefined,
  name: SettingName,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = get(name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw))
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

function withConfigFile(env: Source, cwd: string): Source {
  const path = env.JUNCTION_CONFIG?.trim();
  if (!path) return env;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(resolve(cwd, path), "utf8"));
  } catch (error) {
    throw new ConfigError("JUNCTION_CONFIG", `cannot read ${path}: ${(error as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ConfigError("JUNCTION_CONFIG", `${path} must hold a JSON object of settings`);
  }
  const fromFile: Source = {};
  for (const [key, value] of Object.entries(json)) {
    if (key in DEPLOY_SECRETS)
      throw new ConfigError(
        key,
        `a secret of junction deploy, read from the environment only; remove it from ${path}`,
      );
    if (!(key in SETTINGS) || key === "JUNCTION_CONFIG")
      throw new ConfigError(key, `unknown setting in ${path}`);
    if (typeof value !== "string" && typeof value !== "number") {
      throw new ConfigError(key, `must be a string or number in ${path}`);
    }
    fromFile[key] = String(value);
  }
  return { ...fromFile, ...env };
}
