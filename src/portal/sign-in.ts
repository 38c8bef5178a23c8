import { createHash, randomBytes } from "node:crypto";
import type { Address, Hex, PublicClient } from "viem";
import { verifySiweMessage } from "viem/siwe";
import { JunctionError } from "../errors/junction-error.ts";
import {
  deleteSession,
  insertSession,
  pruneExpiredPortalRows,
  recordNonceUse,
  sessionAddress,
} from "../store/repositories/portal-sessions.ts";
import type { Db } from "../store/schema.ts";
import { checkSignInMessage, SIGN_IN_MESSAGE_LIMITS, type SignInSite } from "./sign-in-message.ts";
import { checkSignInNonce, issueSignInNonce, NONCE_LIFETIME_MS } from "./sign-in-nonce.ts";

/**
 * Sign-in with Ethereum (EIP-4361) for the developer portal (docs/rules.md, ours: portal sign-in): the
 * service issues a nonce, the wallet signs a message naming this site (its configured public origin), chain
 * 4663, the nonce and an expiry, and a verified signature opens a session carried by an HttpOnly cookie.
 * Signatures are checked with viem's `verifySiweMessage` (EOAs, and contract wallets through
 * ERC-1271/6492 at the latest block).
 */
export const SIGN_IN_LIMITS = {
  /** A nonce not used within this long is refused. */
  nonceMs: NONCE_LIFETIME_MS,
  ...SIGN_IN_MESSAGE_LIMITS,
  /** A session lasts this long; signing in again opens a new one. */
  sessionMs: 12 * 60 * 60_000,
} as const;

export type SignInClient = Parameters<typeof verifySiweMessage>[0] & Pick<PublicClient, "chain">;

/** What sign-in needs: the store, a chain client, the site messages must name, the nonces' shared secret. */
export type SignInDeps = { db: Db; client: SignInClient; site: SignInSite; nonceSecret: Uint8Array };

/** A session: its token (for the cookie, never stored) and the signed-in wallet (lower-case). */
export type Session = { token: string; address: Address; expiresAt: Date };

const refuse = (message: string) => new JunctionError("UNAUTHORIZED", message);
const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Issues a nonce for the next sign-in message; it writes nothing (docs/rules.md, ours: portal sign-in). */
export function issueNonce(nonceSecret: Uint8Array, now = new Date()): { nonce: string; expiresAt: Date } {
  return issueSignInNonce(nonceSecret, now);
}

/**
 * Verifies a signed EIP-4361 message for the configured site and opens a session. The message must pass
 * `checkSignInMessage`, carry a nonce this deployment issued that has not expired, and be signed by its
 * address; only then is the nonce recorded as used (a second sign-in with it is refused).
 */
export async function signIn(
  deps: SignInDeps,
  request: { message: string; signature: Hex; now?: Date },
): Promise<Session> {
  const { db, client, site, nonceSecret } = deps;
  const { message, signature } = request;
  const now = request.now ?? new Date();
  const fields = checkSignInMessage(message, site, now);
  const nonceExpiresAt = checkSignInNonce(nonceSecret, fields.nonce, now);
  const valid = await verifySiweMessage(client, {
    message,
    signature,
    domain: site.domain,
    nonce: fields.nonce,
    time: now,
  });
  if (!valid) throw refuse("the signature does not match the message and its address");
  if (!(await recordNonceUse(db, fields.nonce, nonceExpiresAt)))
    throw refuse("the nonce was already used; ask for a new one");

  await pruneExpiredPortalRows(db, now);
  const token = randomBytes(32).toString("base64url");
  const address = fields.address.toLowerCase() as Address;
  const expiresAt = new Date(now.getTime() + SIGN_IN_LIMITS.sessionMs);
  await insertSession(db, { tokenHash: tokenHash(token), address, expiresAt });
  return { token, address, expiresAt };
}

/** The wallet signed in with `token` (lower-case), or undefined for no, an unknown or an expired session. */
export async function sessionWallet(db: Db, token: string | undefined, now = new Date()) {
  if (!token || token.length > 128) return undefined;
  return (await sessionAddress(db, tokenHash(token), now)) as Address | undefined;
}

export async function signOut(db: Db, token: string): Promise<void> {
  await deleteSession(db, tokenHash(token));
}
