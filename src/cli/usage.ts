import { PLANS } from "../auth/plans.ts";
import { CHAIN_ID } from "../chain/chain.ts";
import { DEPLOY_SECRETS, SETTINGS } from "../config/settings.ts";
import { SETTLEMENT_EVENT_TYPES } from "../events/event-envelope.ts";

/** Usage of each operator command, shown with `junction help` and after a usage error. */
export const COMMAND_USAGE: Record<string, string> = {
  deploy:
    "junction deploy --plan <plan.json> --out <deployment.json> [--rpc <url>] [--keystore <file>] [--dry-run] [--json]",
  "workspace create": "junction workspace create --name <name> --code <BUILDER_CODE> [--json]",
  "workspace activate":
    "junction workspace activate --code <code> --owner <address> --recipient <address> --fee <bps 0-50> [--json]",
  "workspace plan": `junction workspace plan --code <id|code> --plan <${Object.keys(PLANS).join("|")}> [--json]`,
  "workspace list": "junction workspace list [--json]",
  "key create":
    "junction key create --workspace <id|code> --name <name> --scopes <quote,swap,tokens,receipts> [--expires <ISO date|30d|12h|30m|90s>] [--json]",
  "key list": "junction key list --workspace <id|code> [--json]",
  "key revoke": "junction key revoke <keyId> [--json]",
  "partner key create":
    "junction partner key create --name <name> [--swap] [--expires <ISO date|30d|12h|30m|90s>] [--json]",
  "partner key list": "junction partner key list [--json]",
  "partner key revoke": "junction partner key revoke <keyId> [--json]",
  "transfer key create":
    "junction transfer key create --name <name> --scopes <estimates,transfers> [--expires <ISO date|30d|12h|30m|90s>] [--json]",
  "transfer key list": "junction transfer key list [--json]",
  "transfer key revoke": "junction transfer key revoke <keyId> [--json]",
  "webhooks add": `junction webhooks add --workspace <id|code> --url <https://...> [--events <${SETTLEMENT_EVENT_TYPES.join(",")}>] [--json]`,
  "webhooks list": "junction webhooks list --workspace <id|code> [--json]",
  "webhooks test": "junction webhooks test --workspace <id|code> --endpoint <endpointId> [--json]",
  "webhooks deliveries":
    "junction webhooks deliveries --workspace <id|code> --endpoint <endpointId> [--json]",
  "webhooks redeliver":
    "junction webhooks redeliver --workspace <id|code> --endpoint <endpointId> --delivery <deliveryId> [--json]",
  "webhooks rotate": "junction webhooks rotate --workspace <id|code> --endpoint <endpointId> [--json]",
  "webhooks remove": "junction webhooks remove --workspace <id|code> --endpoint <endpointId> [--json]",
};

/** Usage of the service commands, shown by `junction start --help` and `junction devnet --help`. */
const SERVICE_USAGE: Record<string, string> = {
  start: "junction start [--workers N]",
  devnet: "junction devnet",
  help: "junction help",
};

/**
 * Usage lines of a command (`key create`), of every command in a group (`key`), or undefined when `command`
 * names none.
 */
export function commandUsage(command: string | undefined): string | undefined {
  const lines = Object.entries({ ...SERVICE_USAGE, ...COMMAND_USAGE })
    .filter(([name]) => command && (name === command || name.startsWith(`${command} `)))
    .map(([, line]) => `  ${line}`);
  return lines.length > 0 ? `Usage:\n${lines.join("\n")}\n\nSee junction help.\n` : undefined;
}

/**
 * What `--help` or `-h` (anywhere before `--`) answers: the usage of the longest command the leading words
 * name (`workspace activate --help`), everything when there are none (`junction --help`); undefined when
 * no help was asked or the words name no command (that stays a usage error).
 */
export function helpRequested(argv: string[]): string | undefined {
  const end = argv.indexOf("--");
  const args = end === -1 ? argv : argv.slice(0, end);
  if (!args.some((arg) => arg === "--help" || arg === "-h")) return undefined;
  const firstFlag = args.findIndex((arg) => arg.startsWith("-"));
  const words = args.slice(0, firstFlag);
  if (words.length === 0 || (words.length === 1 && words[0] === "help")) return USAGE;
  for (let n = words.length; n > 0; n--) {
    const usage = commandUsage(words.slice(0, n).join(" "));
    if (usage) return usage;
  }
  return undefined;
}

export const USAGE = `junction: swap routing for chain ${CHAIN_ID}

Usage:
  junction start     start the service (on the embedded devnet unless JUNCTION_RPC_URL is set)
                     --workers N: N service processes sharing the ports (needs DATABASE_URL and
                     JUNCTION_RPC_URL)
  junction devnet    start only the embedded devnet and print its RPC URL and manifest
  junction help      show this help; every command also answers --help (or -h) with its usage

Operator commands (workspaces, builder API keys, partner API keys, transfer customer keys, webhooks):
${Object.values(COMMAND_USAGE)
  .map((line) => `  ${line}`)
  .join("\n")}

  deploy               deploys and wires Junction's contracts on JUNCTION_RPC_URL (or --rpc) from the plan, with
                       the key in JUNCTION_DEPLOYER_KEY or --keystore (password in JUNCTION_KEYSTORE_PASSWORD),
                       verifies them and writes the deployment file; a rerun resumes; --dry-run sends nothing
  workspace create     a workspace and its public builder code (not yet registered on chain)
  workspace activate   prints the unsigned registry registration for the owner's wallet to sign, after
                       simulating it; a code already registered and enabled activates the workspace now
  workspace plan       moves a workspace to another plan; its new limits apply from the next request
  key create           shows the full key once; quote and swap scopes need an activated builder ID
  partner key create   a partner API bearer key (jpk_...), shown once; --swap lets it use recipient,
                       slippageBps, minOut and deadline on /quote
  transfer key create  a transfer-estimate customer key (jtk_..., X-Service-Api-Key), shown once; scope
                       estimates reads /api/transfers/v1/routes (transfers is reserved: creation is disabled)
  webhooks add         a workspace's webhook endpoint (every settlement event unless --events), its signing
                       secret shown once; the URL must be https:// at a public address unless
                       JUNCTION_WEBHOOKS_ALLOW_PRIVATE=true (the devnet allows private and http://)
  webhooks test        queues a webhook.test event for that endpoint; test and redeliver only write to the
                       outbox: the running service sends them within 5 seconds
  webhooks rotate      a new signing secret, shown once; the old one keeps signing for 24 hours
  --json               prints exactly one JSON object on stdout

  They use the service's database (DATABASE_URL, else the embedded one in JUNCTION_DATA_DIR, through the
  running service when there is one) and its chain (JUNCTION_RPC_URL and JUNCTION_DEPLOYMENT, else the
  devnet manifest in the data dir, reachable while the devnet runs). Exit codes: 1 error, 2 bad usage.

Settings (environment variables, or keys of the JSON file named by JUNCTION_CONFIG):
${Object.entries(SETTINGS)
  .map(([name, text]) => `  ${name.padEnd(28)} ${text}`)
  .join("\n")}

Deploy secrets (environment only; the service and the operator commands ignore them):
${Object.entries(DEPLOY_SECRETS)
  .map(([name, text]) => `  ${name.padEnd(28)} ${text}`)
  .join("\n")}
`;
