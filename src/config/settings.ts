/** The devnet's token and pool universe when JUNCTION_DEVNET_SEED is unset (and for tests that name none). */
export const DEFAULT_DEVNET_SEED = 4663;

/**
 * Every setting Junction reads, in one place. Values come from environment variables, or from a JSON file
 * named by `JUNCTION_CONFIG` holding the same names as keys (the environment wins). The
 * "Configuration" table of docs/operating.md mirrors this list.
 */
export const SETTINGS = {
  JUNCTION_CONFIG: "optional JSON file with any of these settings as keys",
  JUNCTION_HOST: "interface both listeners bind to (default 127.0.0.1)",
  JUNCTION_PORT: "port of the main API, {base_url} (default 8787)",
  JUNCTION_PARTNER_PORT: "port of the partner API, {partner_url} (default 8788)",
  JUNCTION_PUBLIC_URL:
    "the origin browsers reach {base_url} at (scheme://host[:port]); portal sign-in and its same-origin check are bound to it (default http://JUNCTION_HOST:JUNCTION_PORT; set it behind a proxy)",
  JUNCTION_DATA_DIR: "where the devnet state, manifest and embedded database live (default ./data)",
  DATABASE_URL:
    "postgres:// URL of a Postgres server; unset uses the embedded PGlite database in the data dir",
  JUNCTION_RPC_URL: "JSON-RPC URL of a real node; unset runs the embedded devnet",
  JUNCTION_RPC_KIND:
    "`private` (never falls back) or `public` (may use one backup after 250 ms); default private",
  JUNCTION_RPC_BACKUP_URL: "backup RPC for a public transport",
  JUNCTION_RPC_WS_URL:
    "ws:// or wss:// endpoint of the node behind JUNCTION_RPC_URL; pool state follows its newHeads subscription instead of polling every second (reads stay on JUNCTION_RPC_URL); unset polls (the embedded devnet uses its own)",
  JUNCTION_RPC_MAX_BATCH:
    "most JSON-RPC calls one request to the node carries (1 to 1000; 1 sends single calls only); unset: 32, lowered when the node refuses a batch",
  JUNCTION_RPC_MAX_BATCH_BYTES:
    "most bytes of one batched request's body (4096 to 100000000); unset: 1000000, lowered when the node refuses a large body",
  JUNCTION_RPC_MAX_RPS:
    "most HTTP requests per second this process sends the node (1 to 100000), requests for clients before background ones; unset: no budget (a node's 429 still backs off)",
  JUNCTION_RPC_MAX_LOG_RANGE:
    "most blocks one eth_getLogs request spans (1 to 10000000); unset: starts at 5000, grows to 100000 on a node that allows it, and learns a node's narrower limit from its refusals",
  JUNCTION_DEPLOYMENT: "deployment file (contract addresses) for JUNCTION_RPC_URL; required with it",
  JUNCTION_DEVNET_PORT: "port of the embedded devnet's anvil (default 8545; 0 picks a free one)",
  JUNCTION_DEVNET_SEED: `seed of the devnet's token and pool universe (default ${DEFAULT_DEVNET_SEED})`,
  JUNCTION_DEVNET_BLOCK_TIME: "seconds between background devnet blocks, so `finalized` advances (default 2)",
  JUNCTION_FINALITY_CONFIRMATIONS:
    "when set to N (1 to 100000), a block is final once N blocks follow it (finalized head = latest − N) instead of at the node's `finalized` tag; for chains where that tag is absent or lags, at the cost of safety against deeper reorgs (default unset: the node's tag)",
  JUNCTION_LOG_LEVEL: "fatal, error, warn, info, debug or trace (default info)",
  JUNCTION_DRAIN_MS:
    "how long a stopping process keeps serving after /readyz turns 503, so a load balancer sees it leave (default 10000 with JUNCTION_RPC_URL, 0 on the embedded devnet; 0 to 120000)",
  JUNCTION_WEBHOOKS_ALLOW_PRIVATE:
    "`true` lets builders add webhook endpoints at private, loopback and link-local addresses, and over plain http (default true on the embedded devnet, false otherwise: HTTPS to public addresses only)",
  JUNCTION_WEBHOOK_RETRY_DIVISOR:
    "divides every delay of the webhook retry schedule (1 to 100000, default 1): a shorter schedule for tests",
  JUNCTION_AGGREGATOR_A_URL:
    "base URL of aggregator-a (a KyberSwap-shaped route-then-build API, chain segment included); unset disables it (the devnet runs a stand-in)",
  JUNCTION_AGGREGATOR_A_API_KEY: "aggregator-a client id (sent as x-client-id); never logged or returned",
  JUNCTION_AGGREGATOR_A_ROUTER:
    "the router aggregator-a's transactions must call; required with JUNCTION_AGGREGATOR_A_URL",
  JUNCTION_AGGREGATOR_A_ENABLED:
    "`false` leaves aggregator-a out of every comparison (default true when configured)",
  JUNCTION_AGGREGATOR_B_URL:
    "base URL of aggregator-b (a 0x-shaped firm-quote API); unset disables it (the devnet runs a stand-in)",
  JUNCTION_AGGREGATOR_B_API_KEY: "aggregator-b API key (sent as 0x-api-key); never logged or returned",
  JUNCTION_AGGREGATOR_B_ALLOWANCE_HOLDER:
    "the fixed allowance holder every aggregator-b transaction must target; required with JUNCTION_AGGREGATOR_B_URL",
  JUNCTION_AGGREGATOR_B_SETTLER_REGISTRY:
    "the on-chain registry naming aggregator-b's active settler; required with JUNCTION_AGGREGATOR_B_URL",
  JUNCTION_AGGREGATOR_B_ENABLED:
    "`false` leaves aggregator-b out of every comparison (default true when configured)",
  JUNCTION_PROVIDER_DEADLINE_MS:
    "how long each aggregator may take to answer before the quote goes on without it (default 2500, 100 to 10000)",
  JUNCTION_BRIDGE_A_URL:
    "base URL of bridge-a (a LI.FI-shaped bridge aggregator API) for transfer estimates; unset disables it (the devnet runs a stand-in)",
  JUNCTION_BRIDGE_A_API_KEY: "bridge-a API key (sent as x-lifi-api-key); never logged or returned",
  JUNCTION_BRIDGE_B_URL:
    "base URL of bridge-b (an Across-shaped intent bridge API) for transfer estimates; unset disables it (the devnet runs a stand-in)",
  JUNCTION_BRIDGE_B_API_KEY: "bridge-b API key (sent as Authorization: Bearer); never logged or returned",
  JUNCTION_TRANSFER_INTEGRATOR:
    "the integrator name bridge providers know this service by (their partner commission goes to it; default junction)",
} as const;

export type SettingName = keyof typeof SETTINGS;

/**
 * Secrets only `junction deploy` reads, from the environment alone. The service and the operator commands
 * accept and ignore them, so a shell that exported one for the deploy can start the service next; a settings
 * file naming one is refused, so a key never sits in a file beside the settings.
 */
export const DEPLOY_SECRETS = {
  JUNCTION_DEPLOYER_KEY: "`junction deploy` only: the deployer's hex private key (or use --keystore)",
  JUNCTION_KEYSTORE_PASSWORD: "`junction deploy --keystore` only: the keystore file's password",
} as const;
