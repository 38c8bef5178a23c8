import { createBaseApp } from "../src/api/base-app.ts";
import { createPartnerApp } from "../src/api/partner-app.ts";
import type { BuilderApiDeps } from "../src/api/routes/builders/builder-api-deps.ts";
import type { PartnerApiDeps } from "../src/api/routes/partner/partner-api-deps.ts";
import type { TransferApiDeps } from "../src/api/routes/transfers/routes.ts";
import type { Contracts } from "../src/config/deployment.ts";
import { createOutboxSignal } from "../src/events/outbox-signal.ts";
import { createAdmission } from "../src/quote/admission.ts";

/**
 * The OpenAPI documents both hosts serve (`{base_url}/openapi.json`, `{partner_url}/openapi.json`), read
 * from apps built with every route mounted. No request other than the two document reads is ever sent to
 * them, so their dependencies are never used: the documents depend on the routes' schemas only.
 */
export async function openApiDocuments(): Promise<{ base: unknown; partner: unknown }> {
  const lifecycle = {
    leaving: () => false,
    closing: () => false,
    readiness: () => ({ ready: true as const }),
  };
  const unused = () => {
    throw new Error("document-only app: no route is called");
  };
  const base = createBaseApp({
    contracts: {} as Contracts,
    providers: () => [],
    latestBlock: unused,
    logError: unused,
    quote: unused,
    admission: createAdmission(),
    // With the event stream, as `junction start` mounts it (src/runtime/create-apps.ts).
    builders: { events: { signal: createOutboxSignal(), leaving: () => false } } as BuilderApiDeps,
    transfers: {} as TransferApiDeps,
    lifecycle,
  });
  const partner = createPartnerApp({
    latestBlock: unused,
    logError: unused,
    partner: {} as PartnerApiDeps,
    lifecycle,
  });
  const read = async (app: typeof base) => (await app.request("/openapi.json")).json();
  return { base: await read(base), partner: await read(partner) };
}
