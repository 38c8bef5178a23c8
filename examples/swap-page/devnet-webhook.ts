/**
 * The operator's step, done for you on the embedded devnet: registers the example backend's webhook URL
 * for the demo workspace with the operator CLI (`junction webhooks add`) and returns the endpoint's
 * signing secret (shown once). Elsewhere the workspace owner adds the endpoint (portal Webhooks panel, or
 * `junction webhooks add --workspace <code> --url <url> --json`) and gives the secret to the backend as
 * JUNCTION_WEBHOOK_SECRET.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const JUNCTION = fileURLToPath(new URL("../../bin/junction.js", import.meta.url));
const run = promisify(execFile);

/** Runs `junction <args> --json` on the service's data dir (or database) and parses its one JSON object. */
async function junction<T>(args: string[], options: { dataDir: string; databaseUrl?: string | undefined }) {
  const env: NodeJS.ProcessEnv = { ...process.env, JUNCTION_DATA_DIR: options.dataDir };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  const { stdout } = await run(process.execPath, [JUNCTION, ...args, "--json"], { env });
  return JSON.parse(stdout) as T;
}

/**
 * Points the workspace's webhooks at `url`: an endpoint this example added before for the same URL (an
 * earlier run, whose secret is gone) is removed first, so restarts do not pile up endpoints that would
 * fail every delivery.
 */
export async function registerDevnetWebhook(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
  workspaceId: string;
  url: string;
}): Promise<{ endpointId: string; secret: string }> {
  const target = new URL(options.url).toString();
  const workspace = ["--workspace", options.workspaceId];
  const { endpoints } = await junction<{ endpoints: { id: string; url: string }[] }>(
    ["webhooks", "list", ...workspace],
    options,
  );
  for (const endpoint of endpoints)
    if (endpoint.url === target)
      await junction(["webhooks", "remove", ...workspace, "--endpoint", endpoint.id], options);
  const added = await junction<{ endpoint: { id: string }; secret: string }>(
    ["webhooks", "add", ...workspace, "--url", target],
    options,
  );
  return { endpointId: added.endpoint.id, secret: added.secret };
}
