import { SERVICE_NODE_FLAGS } from "./node-flags.ts";

/**
 * The command that starts the service on the new deployment, as typed in this repository: `junction` is not
 * on PATH after `npm ci` (`npx` finds it), and the service runs with its Node flags, as `npm start` does.
 * Values are shell-quoted so the line runs as printed.
 */
export function startCommand(rpcUrl: string, deploymentPath: string): string {
  const quote = (value: string) =>
    /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
  return [
    `JUNCTION_RPC_URL=${quote(rpcUrl)}`,
    `JUNCTION_DEPLOYMENT=${quote(deploymentPath)}`,
    `NODE_OPTIONS=${quote(SERVICE_NODE_FLAGS.join(" "))}`,
    "npx junction start",
  ].join(" ");
}
