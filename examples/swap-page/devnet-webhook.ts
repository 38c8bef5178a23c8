/**
 * The operator's step, done for you on the embedded devnet: registers the example backend's webhook URL
 * for the demo workspace and returns the endpoint's signing secret (shown once). Elsewhere the workspace
 * owner adds the endpoint (portal Webhooks panel, or `junction webhooks add --workspace <code> --url
 * <url> --json`) and gives the secret to the backend as JUNCTION_WEBHOOK_SECRET.
 *
 * It calls the service's own domain function on the service's database, as the operator CLI does
 * (through the running service's socket, or the data dir directly when it is stopped). Once
 * `junction webhooks add` is on main, this becomes that one command.
 */
import {
  addWebhookEndpoint,
  listWebhookEndpoints,
  removeWebhookEndpoint,
} from "../../src/events/webhook-endpoints.ts";
import { createStore } from "../../src/store/create-store.ts";
import { openEmbeddedClient } from "../../src/store/embedded-shared.ts";

/** The devnet allows plain http and loopback receivers (docs/api/builders.md, "Events and webhooks"). */
const DEVNET_POLICY = { allowHttp: true, allowPrivate: true };

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
  const store = options.databaseUrl
    ? await createStore({ databaseUrl: options.databaseUrl, dataDir: options.dataDir })
    : await openEmbeddedClient({ dataDir: options.dataDir });
  try {
    const target = new URL(options.url).toString();
    for (const endpoint of await listWebhookEndpoints(store.db, options.workspaceId))
      if (endpoint.url === target) await removeWebhookEndpoint(store.db, options.workspaceId, endpoint.id);
    const { endpoint, secret } = await addWebhookEndpoint(store.db, DEVNET_POLICY, options.workspaceId, {
      url: target,
    });
    return { endpointId: endpoint.id, secret };
  } finally {
    await store.close();
  }
}
