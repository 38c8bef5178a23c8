import { createHash, randomBytes } from "node:crypto";
import type { Address, Hex, PublicClient } from "viem";
import { generateSiweNonce, parseSiweMessage, verifySiweMessage } from "viem/siwe";
import { CHAIN_ID } from "../chain/chain.ts";
import { JunctionError } from "../errors/junction-error.ts";
import {
  consumeNonce,
  deleteSession,
  insertNonce,
  insertSession,
  pruneExpiredPortalRows,
  sessionAddress,
} from "../store/repositories/portal-sessions.ts";
import type { Db } from "../store/schema.ts";

/**
 * Sign-in with Ethereum (EIP-4361) for the developer portal (docs/rules.md, ours: portal sign-in): the
 * service issues a single-use nonce, the wallet signs a message naming this site, chain 4663, the nonce and
 * an expiry, and a verified signature opens a session carried by an HttpOnly cookie. Signatures are checked
 * with viem's `verifySiweMessage` (EOAs, and contract wallets through ERC-1271/6492 at the latest block).
 */
export const SIGN_IN_LIMITS = {
  /** A nonce not used within this long is refused. */
  nonceMs: 10 * 60_000,
  /** How old a message's `issuedAt` may be, and how far ahead of our clock (clock skew). */
  issuedAtWindowMs: 10 * 60_000,
  /** A session lasts this long; signing in again opens a new one. */
  sessionMs: 12 * 60 * 60_000,
  /** The longest message accepted (EIP-4361 messages are a few hundred bytes). */
  maxMessageLength: 4096,
} as const;

export type SignInClient = Parameters<typeof verifySiweMessage>[0] & Pick<PublicClient, "chain">;

/** A session: its token (for the cookie, never stored) and the signed-in wallet (lower-case). */
export type Session = { token: string; address: Address; expiresAt: Date };

const refuse = (message: string) => new JunctionError("UNAUTHORIZED", message);
const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Issues a single-use nonce for the next sign-in message. */
export async function issueNonce(db: Db, now = new Date()): Promise<{ nonce: string; expiresAt: Date }> {
  await pruneExpiredPortalRows(db, now);
  const nonce = generateSiweNonce();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LIMITS.nonceMs);
  await insertNonce(db, nonce, expiresAt);
  return { nonce, expiresAt };
}

/**
 * Verifies a signed EIP-4361 message for `domain` (the portal's host as the browser sent it) and opens a
 * session. The message must name chain 4663, a nonce we issued and nobody used, an `issuedAt` within ten
 * minutes and an `expirationTime` still ahead; the nonce is spent even when the signature is wrong.
 */
export async function signIn(options: {
  db: Db;
  client: SignInClient;
  domain: string;
  message: string;
  signature: Hex;
  now?: Date;
}): Promise<Session> {
  const { db, client, domain, message, signature } = options;
  const now = options.now ?? new Date();
  if (message.length > SIGN_IN_LIMITS.maxMessageLength) throw refuse("the sign-in message is too long");
  const fields = parseSiweMessage(message);
  if (!fields.address || !fields.nonce || fields.version !== "1")
    throw refuse("not an EIP-4361 sign-in message");
  if (fields.domain !== domain) throw refuse(`the message is for another site; sign in on ${domain}`);
  if (fields.chainId !== CHAIN_ID) throw refuse(`sign in on chain ${CHAIN_ID}`);
  if (!fields.expirationTime) throw refuse("the message needs an expiration time");
  const issuedAt = fields.issuedAt?.getTime();
  if (
    issuedAt === undefined ||
    issuedAt < now.getTime() - SIGN_IN_LIMITS.issuedAtWindowMs ||
    issuedAt > now.getTime() + SIGN_IN_LIMITS.issuedAtWindowMs
  )
    throw refuse("the message's issuedAt is not recent; sign a new message");
  if (!(await consumeNonce(db, fields.nonce, now)))
    throw refuse("the nonce is unknown, used or expired; ask for a new one");
  const valid = await verifySiweMessage(client, {
    message,
    signature,
    domain,
    nonce: fields.nonce,
    time: now,
  });
  if (!valid) throw refuse("the signature does not match the message and its address");

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
