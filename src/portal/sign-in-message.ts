import type { Address } from "viem";
import { parseSiweMessage } from "viem/siwe";
import { CHAIN_ID } from "../chain/chain.ts";
import { echo, JunctionError } from "../errors/junction-error.ts";

/**
 * The site a sign-in message must name: the service's configured public origin (JUNCTION_PUBLIC_URL),
 * never a request's `Host` or `Origin` header, which whoever sends the request chooses.
 */
export type SignInSite = {
  /** `scheme://host[:port]`, as `URL.origin` prints it. */
  origin: string;
  /** The EIP-4361 `domain`: host and port as `URL.host` prints them (a default port omitted). */
  domain: string;
  /** `http` or `https`. */
  scheme: string;
};

export function signInSite(publicUrl: string): SignInSite {
  const url = new URL(publicUrl);
  return { origin: url.origin, domain: url.host, scheme: url.protocol.slice(0, -1) };
}

export const SIGN_IN_MESSAGE_LIMITS = {
  /** How old a message's `issuedAt` may be, and how far ahead of our clock (clock skew). */
  issuedAtWindowMs: 10 * 60_000,
  /** The longest message accepted (EIP-4361 messages are a few hundred bytes). */
  maxMessageLength: 4096,
} as const;

/** The fields of a message that passed every check but the signature. */
export type CheckedSignInMessage = { address: Address; nonce: string };

const refuse = (message: string) => new JunctionError("UNAUTHORIZED", message);

/**
 * Checks an EIP-4361 message against `site` at `now` (docs/rules.md, ours: portal sign-in), each failure
 * with its own reason: the site (domain, URI, scheme), chain 4663, a nonce, the lifetime (expiry,
 * not-before, issued-at). What is left after it is the nonce's origin and use, and the signature.
 */
export function checkSignInMessage(message: string, site: SignInSite, now: Date): CheckedSignInMessage {
  if (message.length > SIGN_IN_MESSAGE_LIMITS.maxMessageLength)
    throw refuse("the sign-in message is too long");
  const fields = parseSiweMessage(message);
  if (!fields.address) throw refuse("not an EIP-4361 sign-in message");
  checkSite(fields, site);
  checkRequiredLines(message);
  if (fields.nonce === undefined || fields.uri === undefined || fields.version !== "1")
    throw refuse("not an EIP-4361 sign-in message (version 1)");
  if (fields.chainId !== CHAIN_ID)
    throw refuse(`the message is for chain ${fields.chainId}; sign in on chain ${CHAIN_ID}`);
  if (safeOrigin(fields.uri) !== site.origin)
    throw refuse(`the message's URI is not on this site; sign in on ${site.origin}`);
  checkLifetime(fields, now);
  return { address: fields.address, nonce: fields.nonce };
}

type Fields = ReturnType<typeof parseSiweMessage>;

function checkSite(fields: Fields, site: SignInSite): void {
  if (fields.domain !== site.domain)
    throw refuse(`the message is for another site (${echo(fields.domain ?? "")}); sign in on ${site.domain}`);
  if (fields.scheme !== undefined && fields.scheme !== site.scheme)
    throw refuse(`the message names the scheme ${echo(fields.scheme)}; sign in on ${site.origin}`);
}

/** viem parses the lines after the statement as one block, so a missing line is named here. */
function checkRequiredLines(message: string): void {
  if (!/^URI: .+$/m.test(message)) throw refuse("the message has no URI; sign in on this site");
  if (!/^Chain ID: /m.test(message))
    throw refuse(`the message has no chain ID; sign in on chain ${CHAIN_ID}`);
  if (!/^Chain ID: \d+$/m.test(message)) throw refuse("the message's chain ID is not a number");
  if (!/^Nonce: /m.test(message)) throw refuse("the message has no nonce; ask for one first");
  if (!/^Nonce: [a-zA-Z0-9]+$/m.test(message))
    throw refuse("the message's nonce is not letters and digits; ask for one first");
  if (!/^Issued At: /m.test(message)) throw refuse("the message has no issuedAt; sign a new message");
}

function checkLifetime(fields: Fields, now: Date): void {
  const at = now.getTime();
  const { expirationTime, notBefore, issuedAt } = fields;
  if (!expirationTime) throw refuse("the message needs an expiration time");
  if (Number.isNaN(expirationTime.getTime())) throw refuse("the message's expiration time is not a date");
  if (expirationTime.getTime() <= at)
    throw refuse(`the message expired at ${expirationTime.toISOString()}; sign a new one`);
  if (notBefore && Number.isNaN(notBefore.getTime())) throw refuse("the message's not-before is not a date");
  if (notBefore && notBefore.getTime() > at)
    throw refuse(`the message is not valid before ${notBefore.toISOString()}`);
  const window = SIGN_IN_MESSAGE_LIMITS.issuedAtWindowMs;
  const issued = issuedAt?.getTime();
  if (issued === undefined || Number.isNaN(issued) || issued < at - window || issued > at + window)
    throw refuse("the message's issuedAt is not recent; sign a new message");
}

function safeOrigin(uri: string): string | undefined {
  try {
    return new URL(uri).origin;
  } catch {
    return undefined;
  }
}
