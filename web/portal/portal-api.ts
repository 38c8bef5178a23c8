/** Calls to the portal's own JSON API (`/portal/api`, session cookie); errors carry the service's message. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function portalApi<T>(
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`/portal/api${path}`, {
    method,
    credentials: "same-origin",
    // Every change is JSON from this origin (the API refuses anything else: no cross-site form posts).
    headers: method === "GET" ? {} : { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = (
      json as { error?: { code?: string; message?: string; issues?: { path: string; message: string }[] } }
    ).error;
    const issues = error?.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
    throw new PortalError(
      response.status,
      error?.code ?? "HTTP_ERROR",
      [error?.message ?? `HTTP ${response.status}`, issues].filter(Boolean).join(" — "),
    );
  }
  return json as T;
}

export type WorkspaceView = {
  id: string;
  name: string;
  code: string | null;
  activated: boolean;
  activatedAt: string | null;
  plan: string;
  createdAt: string;
  owner: string | null;
};

export type Builder = {
  code: string;
  owner: string;
  recipient: string;
  builderFeeBps: number;
  maxBuilderFeeBps: number;
  routeFeeBps: number | null;
  enabled: boolean;
  version: number;
  policyBlock?: string;
};

export type WorkspaceStatus = {
  workspace: WorkspaceView;
  activation: { status: "active" | "waiting" | "suspended" | "owner-mismatch"; builder?: Builder };
  profile: Builder | null;
};

export type KeyView = {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  status: "active" | "expired" | "revoked";
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
};

export type Settlement = {
  quoteId: string;
  hash: string;
  blockNumber: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  grossAmountOut: string;
  routeFee: string;
  builderFee: string;
  amountOut: string;
};

export type WebhookEndpoint = {
  id: string;
  url: string;
  eventTypes: string[];
  createdAt: string;
  previousSecretValidUntil: string | null;
};

export type WebhookDelivery = {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastResponse: string | null;
  createdAt: string;
};
