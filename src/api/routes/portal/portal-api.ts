import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { type Address, isHex } from "viem";
import { z } from "zod";
import { BUILDER_LIMITS } from "../../../builders/limits.ts";
import { readRegistryBuilder } from "../../../builders/registry-profile.ts";
import { InvalidRequestError, invalidInput, JunctionError } from "../../../errors/junction-error.ts";
import {
  issueNonce,
  SIGN_IN_LIMITS,
  type SignInClient,
  type SignInDeps,
  sessionWallet,
  signIn,
  signOut,
} from "../../../portal/sign-in.ts";
import type { SignInSite } from "../../../portal/sign-in-message.ts";
import {
  createOwnKey,
  createOwnWorkspace,
  listOwnKeys,
  listOwnWorkspaces,
  ownUsage,
  ownWorkspace,
  type PortalDeps,
  prepareActivation,
  revokeOwnKey,
  workspaceStatus,
} from "../../../portal/workspaces.ts";
import type { BuilderApiDeps } from "../builders/builder-api-deps.ts";
import { historyResume, readHistoryResponse } from "../builders/history.ts";
import { type PortalWebhookDeps, registerPortalWebhooks } from "./portal-webhooks.ts";

/**
 * The developer portal's JSON API under `/portal/api` (docs/rules.md, ours: developer portal), for the
 * portal page served beside it; not part of the integration API (no OpenAPI entry, no keys: a session
 * cookie). Sign-in with Ethereum opens the session; every other route acts for the signed-in wallet on
 * the workspaces bound to it. The cookie is HttpOnly and SameSite=Strict, and every change must come as
 * JSON from the configured public origin, so another site can neither read nor forge a portal request.
 * Request headers (`Host`, `Origin`) never decide which site a sign-in is for.
 */
export type PortalApiDeps = Pick<BuilderApiDeps, "db" | "deployment" | "cursorSecret" | "settlementIndex"> & {
  client: BuilderApiDeps["client"];
  /** The service's public origin (JUNCTION_PUBLIC_URL): sign-in messages must name it. */
  site: SignInSite;
  /** Signs sign-in nonces; shared by every process of the deployment. */
  nonceSecret: Uint8Array;
  /** Webhook endpoints; absent, the portal has no webhook routes. */
  webhooks?: PortalWebhookDeps;
};

const COOKIE = "junction_portal";

type PortalEnv = { Variables: { wallet: Address } };

const SignInBody = z.strictObject({
  message: z.string().max(SIGN_IN_LIMITS.maxMessageLength),
  signature: z.string().refine((value) => isHex(value) && value.length <= 2 + 2 * 4096, "a hex signature"),
});
const WorkspaceBody = z.strictObject({ name: z.string(), code: z.string() });
const ActivationBody = z.strictObject({ recipient: z.string(), builderFeeBps: z.number() });
const KeyBody = z.strictObject({
  name: z.string(),
  scopes: z.array(z.string()).max(8),
  expiresInDays: z.number(),
});

async function body<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw invalidInput("body", "a JSON object");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new InvalidRequestError(
      parsed.error.issues.map((issue) => ({ path: issue.path.join(".") || "body", message: issue.message })),
    );
  return parsed.data;
}

/**
 * Changes come as JSON from the configured public origin (with SameSite=Strict, this closes CSRF); a
 * request without `Origin` is not a browser's cross-site one.
 */
const sameOriginJson =
  (site: SignInSite): MiddlewareHandler =>
  async (c, next) => {
    if (c.req.method !== "GET") {
      if (!(c.req.header("content-type") ?? "").startsWith("application/json"))
        throw new JunctionError("INVALID_REQUEST", "send JSON (Content-Type: application/json)");
      const origin = c.req.header("origin");
      if (origin !== undefined && origin !== site.origin)
        throw new JunctionError(
          "FORBIDDEN",
          `portal requests must come from the portal's origin, ${site.origin}`,
        );
    }
    await next();
  };

export function registerPortalApi(app: OpenAPIHono, deps: PortalApiDeps): void {
  const portal: PortalDeps = {
    db: deps.db,
    client: deps.client,
    registry: deps.deployment.contracts.builderRegistry,
  };
  const signedIn: MiddlewareHandler<PortalEnv> = async (c, next) => {
    const wallet = await sessionWallet(deps.db, getCookie(c, COOKIE));
    if (!wallet) throw new JunctionError("UNAUTHORIZED", "sign in with your wallet first");
    c.set("wallet", wallet);
    await next();
  };
  const api = app.basePath("/portal/api") as unknown as OpenAPIHono<PortalEnv>;
  const signInDeps: SignInDeps = {
    db: deps.db,
    client: deps.client as SignInClient,
    site: deps.site,
    nonceSecret: deps.nonceSecret,
  };
  api.use("*", sameOriginJson(deps.site));

  api.get("/nonce", (c) => {
    const { nonce, expiresAt } = issueNonce(deps.nonceSecret);
    return c.json({ nonce, expiresAt: expiresAt.toISOString() });
  });
  api.post("/session", async (c) => {
    const { message, signature } = await body(c, SignInBody);
    const session = await signIn(signInDeps, { message, signature: signature as `0x${string}` });
    setCookie(c, COOKIE, session.token, {
      httpOnly: true,
      sameSite: "Strict",
      // Behind a TLS-terminating proxy the request is plain HTTP; the public origin says what browsers use.
      secure: deps.site.scheme === "https",
      path: "/portal",
      expires: session.expiresAt,
    });
    return c.json({ address: session.address, expiresAt: session.expiresAt.toISOString() });
  });
  api.get("/session", signedIn, (c) => c.json({ address: c.get("wallet") }));
  api.delete("/session", async (c) => {
    const token = getCookie(c, COOKIE);
    if (token) await signOut(deps.db, token);
    deleteCookie(c, COOKIE, { path: "/portal" });
    return c.body(null, 204);
  });

  api.get("/workspaces", signedIn, async (c) =>
    c.json({ workspaces: await listOwnWorkspaces(deps.db, c.get("wallet")) }),
  );
  api.post("/workspaces", signedIn, async (c) => {
    const input = await body(c, WorkspaceBody);
    return c.json({ workspace: await createOwnWorkspace(deps.db, c.get("wallet"), input) }, 201);
  });
  api.get("/workspaces/:id", signedIn, async (c) => {
    const status = await workspaceStatus(portal, c.get("wallet"), c.req.param("id"));
    const code = status.workspace.code;
    const onChain = code ? await readRegistryBuilder(deps.client, portal.registry, code) : undefined;
    return c.json({
      ...status,
      profile: onChain?.builder ? { ...onChain.builder, policyBlock: onChain.block.number.toString() } : null,
    });
  });
  api.post("/workspaces/:id/activation", signedIn, async (c) => {
    const input = await body(c, ActivationBody);
    const tx = await prepareActivation(portal, c.get("wallet"), c.req.param("id"), input);
    return c.json({ transaction: { ...tx, value: "0" } });
  });
  api.get("/workspaces/:id/keys", signedIn, async (c) =>
    c.json({ keys: await listOwnKeys(deps.db, c.get("wallet"), c.req.param("id")) }),
  );
  api.post("/workspaces/:id/keys", signedIn, async (c) => {
    const input = await body(c, KeyBody);
    const key = await createOwnKey(deps.db, c.get("wallet"), c.req.param("id"), input);
    return c.json({ key }, 201);
  });
  api.delete("/workspaces/:id/keys/:keyId", signedIn, async (c) => {
    await revokeOwnKey(deps.db, c.get("wallet"), c.req.param("id"), c.req.param("keyId"));
    return c.body(null, 204);
  });
  api.get("/workspaces/:id/usage", signedIn, async (c) =>
    c.json(await ownUsage(deps.db, c.get("wallet"), c.req.param("id"))),
  );
  api.get("/workspaces/:id/history", signedIn, async (c) => {
    const workspace = await ownWorkspace(deps.db, c.get("wallet"), c.req.param("id"));
    if (!workspace.code) throw invalidInput("id", "the workspace has no builder code");
    const cursor = c.req.query("cursor");
    if (cursor !== undefined && cursor.length > BUILDER_LIMITS.historyCursorMaxLength)
      throw invalidInput("cursor", "too long");
    return c.json(
      await readHistoryResponse(deps, workspace.code, historyResume(deps, workspace.code, cursor)),
    );
  });
  if (deps.webhooks) registerPortalWebhooks(api, signedIn, { db: deps.db, webhooks: deps.webhooks }, body);
}
