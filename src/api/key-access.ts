import type { Context, MiddlewareHandler } from "hono";
import type { AuthFailure, KeyFamily } from "../auth/key-family.ts";
import { JunctionError } from "../errors/junction-error.ts";
import type { Db } from "../store/schema.ts";

/**
 * How one surface asks for its keys at the edge (docs/rules.md, auth rules 2, 7, 8); the family
 * (src/auth/key-family.ts) says what a key is, this says how a request carries it and what it costs.
 */
export type KeyGate<S extends string, P, V extends string, B> = {
  family: KeyFamily<S, P, unknown>;
  /** The request variable its handlers read the principal from. */
  variable: V;
  /** The header carrying the key. */
  header: string;
  /** The key inside the header's (non-blank) value, or undefined when it is not shaped as the surface asks. */
  token?: (value: string) => string | undefined;
  /** How refusals name the key ("API key", "partner API key") and how a missing one is to be sent. */
  noun: string;
  howToSend: string;
  /** The principal's scopes, for a surface whose endpoints each ask for one. */
  scopes?: (principal: P) => readonly S[];
  /** `WWW-Authenticate` sent with a 401, when the scheme asks for one. */
  challenge?: string;
  /** Spends one request of `bucket` from the principal's rate; throws the surface's 402/429 when spent. */
  spend: (db: Db, principal: P, bucket: B) => Promise<void>;
};

export type KeyAccessVariables<V extends string, P> = { [K in V]: P } & {
  /** Spends this request's rate, once; see {@link chargeKeyRequest}. */
  charge: () => Promise<void>;
};

/**
 * The one gate in front of every keyed endpoint: the surface's header must carry a live key of its family
 * (else 401 UNAUTHORIZED, with the surface's challenge; the message never repeats the key) holding `scope`
 * when one is asked (else 403 FORBIDDEN). Keys are looked up on every request, so a revocation bites at once.
 *
 * The rate is not spent here: the handler validates the request first and calls {@link chargeKeyRequest}
 * right before the work, so a request refused as invalid (400), forbidden (403) or for capacity (429 BUSY)
 * spends nothing. A second charge in the same request spends nothing either; `bucket: null` never spends.
 */
export function keyAccess<S extends string, P, V extends string, B>(
  gate: KeyGate<S, P, V, B>,
  db: Db,
  options: { scope?: S; bucket: B | null },
): MiddlewareHandler<{ Variables: KeyAccessVariables<V, P> }> {
  const messages = {
    missing: `missing ${gate.noun}: ${gate.howToSend}`,
    malformed: `invalid ${gate.noun}`,
    unknown: `invalid ${gate.noun}`,
    expired: `the ${gate.noun} has expired`,
    revoked: `the ${gate.noun} has been revoked`,
  } as const;
  return async (c, next) => {
    const principal = await gate.family.authenticate(db, presentedKey(gate, c));
    if (isFailure(principal)) {
      if (gate.challenge) c.header("WWW-Authenticate", gate.challenge);
      throw new JunctionError("UNAUTHORIZED", messages[principal.failure]);
    }
    const { scope, bucket } = options;
    if (scope && !gate.scopes?.(principal).includes(scope))
      throw new JunctionError("FORBIDDEN", `the ${gate.noun} lacks the ${scope} scope`);
    let charged = false;
    (c as Context).set(gate.variable, principal);
    (c as Context).set("charge", async () => {
      if (charged || bucket === null) return;
      charged = true;
      await gate.spend(db, principal, bucket);
    });
    await next();
  };
}

/** Spends this request's rate (see {@link keyAccess}); call it once the request is valid, right before the work. */
export function chargeKeyRequest<E extends { Variables: { charge: () => Promise<void> } }>(
  c: Context<E>,
): Promise<void> {
  return (c as Context).get("charge")();
}

function isFailure(value: unknown): value is { failure: AuthFailure } {
  return typeof value === "object" && value !== null && "failure" in value;
}

/** The header's key: undefined when absent or blank (missing), "" when shaped wrongly (malformed). */
function presentedKey(gate: { header: string; token?: (value: string) => string | undefined }, c: Context) {
  const value = c.req.header(gate.header);
  if (value === undefined || value.trim() === "") return undefined;
  return gate.token ? (gate.token(value) ?? MALFORMED) : value;
}

/** A value no family parses: a header shaped wrongly is refused as malformed without a database read. */
const MALFORMED = "malformed";
