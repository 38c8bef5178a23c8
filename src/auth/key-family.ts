import { insertKey, keyByHash, keyRow, listKeyRows, revokeKeyRow } from "../store/repositories/keys.ts";
import type { Db, KeyFamilyName } from "../store/schema.ts";
import { generateApiKey, hashApiKey, type KeyPrefix, parseApiKey } from "./api-key.ts";
import { type KeyStatus, keyLifecycle, keyStatus } from "./key-lifecycle.ts";

/** A request that breaks the key rules (docs/rules.md, auth rules 4, 7 and 8): the operator gets this message. */
export class KeyPolicyError extends Error {
  override name = "KeyPolicyError";
}

/** Why a presented key is refused: the gate of each surface words it for its clients. */
export type AuthFailure = "missing" | "malformed" | "unknown" | "expired" | "revoked";

/** A live key as it authenticates: its scopes narrowed to the family's, and its workspace (builder keys). */
export type LiveKey<S extends string> = {
  keyId: string;
  name: string;
  scopes: S[];
  workspace: { id: string; builderCode: string | null; plan: string; activated: boolean } | null;
};

/**
 * What makes one family of keys differ from the others (docs/rules.md, auth rules 2, 7, 8): everything
 * else (format, hashing, expiry, revocation, lookup on every request) is {@link defineKeyFamily}'s, once.
 */
export type KeyFamilySpec<S extends string, P, Shown> = {
  /** How its rows are told apart in the `keys` table. */
  family: KeyFamilyName;
  /** The key's first characters, so a leaked key says what it opens (see api-key.ts). */
  prefix: KeyPrefix;
  /** How its policy messages name it: "key", "partner key", "transfer key". */
  noun: string;
  /** The permissions it can grant, in the order they are stored and shown. */
  scopes: readonly S[];
  /** Whether a key needs at least one scope (a partner key without `swap` still quotes). */
  needsScope: boolean;
  /** Who is calling, as the surface's handlers see it. */
  principal: (key: LiveKey<S>) => P;
  /** How listings and the issuing command show its scopes (a partner key's as `swap: boolean`). */
  show: (scopes: S[]) => Shown;
};

/** A key as listings show it: never its secret nor its hash. */
export type KeyView<Shown> = {
  id: string;
  prefix: string;
  name: string;
  status: KeyStatus;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
} & Shown;

/** A key just issued: the full key (`secret`) is in this answer only. */
export type IssuedKey<S extends string, Shown> = {
  id: string;
  /** `<prefix>_<id>`: the visible part listings show. */
  prefix: string;
  name: string;
  scopes: S[];
  expiresAt: Date | null;
  secret: string;
  shown: Shown;
};

export type KeyFamily<S extends string, P, Shown> = KeyFamilySpec<S, P, Shown> & {
  /** Issues a key: `<prefix>_<id>_<secret><checksum>`, returned once; only its SHA-256 is stored. */
  issue(
    db: Db,
    input: { name: string; scopes: readonly S[]; expiresAt?: Date; workspaceId?: string },
    now?: Date,
  ): Promise<IssuedKey<S, Shown>>;
  /**
   * Resolves a presented key to its principal, or says why it is refused. Shape and checksum are checked
   * before any database read, so a typo, a truncated paste or another family's key never reaches it; the
   * key is looked up on every request, so a revocation bites at once.
   */
  authenticate(db: Db, presented: string | undefined, now?: Date): Promise<P | { failure: AuthFailure }>;
  /** The family's keys (of one workspace, when given), newest first. */
  list(db: Db, options?: { workspaceId?: string; now?: Date }): Promise<KeyView<Shown>[]>;
  /** One key by its id or its visible prefix (`<prefix>_<id>`), with the workspace it belongs to. */
  find(db: Db, ref: string, now?: Date): Promise<(KeyView<Shown> & { workspaceId?: string }) | undefined>;
  /** Revokes a key, effective on its next request; false when already revoked or not of this family. */
  revoke(db: Db, keyId: string, at?: Date): Promise<boolean>;
};

/** The one implementation of API keys; each surface declares its family with a spec. */
export function defineKeyFamily<S extends string, P, Shown>(
  spec: KeyFamilySpec<S, P, Shown>,
): KeyFamily<S, P, Shown> {
  /** Stored scopes narrowed to the ones this version knows (a later version's scope grants nothing here). */
  const known = (stored: readonly string[]): S[] => spec.scopes.filter((scope) => stored.includes(scope));
  const toView = (row: ListedRow, now: Date): KeyView<Shown> => ({
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    ...spec.show(known(row.scopes)),
    ...keyLifecycle(row, now),
  });

  return {
    ...spec,
    async issue(db, input, now = new Date()) {
      const name = input.name.trim();
      if (name === "") throw new KeyPolicyError(`a ${spec.noun} needs a name`);
      if (spec.needsScope && input.scopes.length === 0)
        throw new KeyPolicyError(`a ${spec.noun} needs at least one scope`);
      const unknown = input.scopes.filter((scope) => !spec.scopes.includes(scope));
      if (unknown.length > 0)
        throw new KeyPolicyError(`unknown scope ${unknown.join(", ")} (known: ${spec.scopes.join(", ")})`);
      if (input.expiresAt && input.expiresAt.getTime() <= now.getTime())
        throw new KeyPolicyError("the expiry is in the past");
      const key = generateApiKey(spec.prefix);
      const scopes = known(input.scopes);
      const expiresAt = input.expiresAt ?? null;
      await insertKey(db, {
        id: key.id,
        family: spec.family,
        workspaceId: input.workspaceId ?? null,
        name,
        prefix: key.prefix,
        keyHash: key.hash,
        scopes,
        expiresAt,
      });
      return {
        id: key.id,
        prefix: key.prefix,
        name,
        scopes,
        expiresAt,
        secret: key.secret,
        shown: spec.show(scopes),
      };
    },

    async authenticate(db, presented, now = new Date()) {
      const key = presented?.trim();
      if (!key) return { failure: "missing" };
      if (!parseApiKey(key, spec.prefix)) return { failure: "malformed" };
      const row = await keyByHash(db, spec.family, hashApiKey(key));
      if (!row) return { failure: "unknown" };
      const status = keyStatus(row, now);
      if (status !== "active") return { failure: status };
      return spec.principal({
        keyId: row.id,
        name: row.name,
        scopes: known(row.scopes),
        workspace:
          row.workspace_id === null
            ? null
            : {
                id: row.workspace_id,
                builderCode: row.builder_code,
                plan: row.plan ?? "free",
                activated: row.activated_at !== null,
              },
      });
    },

    async list(db, { workspaceId, now = new Date() } = {}) {
      return (await listKeyRows(db, spec.family, workspaceId)).map((row) => toView(row, now));
    },

    async find(db, ref, now = new Date()) {
      const visible = `${spec.prefix}_`;
      const row = await keyRow(db, spec.family, ref.startsWith(visible) ? ref.slice(visible.length) : ref);
      if (!row) return undefined;
      return { ...toView(row, now), ...(row.workspace_id === null ? {} : { workspaceId: row.workspace_id }) };
    },

    revoke(db, keyId, at = new Date()) {
      return revokeKeyRow(db, spec.family, keyId, at);
    },
  };
}

type ListedRow = {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  expires_at: unknown;
  revoked_at: unknown;
  created_at: unknown;
};
