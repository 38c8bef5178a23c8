import type { IssuedKey, KeyFamily } from "../auth/key-family.ts";
import { OperatorError, UsageError } from "./cli-errors.ts";
import { parseExpiry } from "./expiry.ts";
import type { OperatorContext } from "./operator-context.ts";
import { fields } from "./output.ts";

const MAX_NAME_LENGTH = 200;

/** How one family's `create`, `list` and `revoke` commands differ; the rest is {@link keyCommands}'s. */
export type KeyCommandSpec<S extends string, Shown> = {
  family: KeyFamily<S, unknown, Shown>;
  /** The command group: `key`, `partner key`, `transfer key`. */
  command: string;
  /** How the holder sends the key, said when it is created: `Authorization: Bearer <key>`. */
  use?: string;
  /** The listing's permission column, and the created key's permission line. */
  column: { title: string; width: number; cell: (shown: Shown) => string };
  permission: (key: IssuedKey<S, Shown>) => [string, string];
  /** What an empty listing says (what to run first). */
  empty: string;
};

/** The workspace a builder key belongs to, as commands show it. */
type Owner = { id: string; label: string };

export type KeyInput<S extends string> = { name: string; scopes: S[]; expiresAt?: Date };

/**
 * One family's operator commands (docs/rules.md, auth rules 2, 7, 8): keys shown in full once, listed with
 * their status (never a secret or a hash), revoked at once (revoking twice is not an error).
 */
export function keyCommands<S extends string, Shown>(spec: KeyCommandSpec<S, Shown>) {
  const { family, command } = spec;
  const noun = family.noun;
  const created = async (ctx: OperatorContext, key: IssuedKey<S, Shown>, owner?: Owner) => {
    const view = {
      id: key.id,
      prefix: key.prefix,
      name: key.name,
      ...(owner ? { workspaceId: owner.id } : {}),
      ...key.shown,
      expiresAt: key.expiresAt,
      secret: key.secret,
    };
    ctx.out.result({ key: view, note: "the secret is shown once; keep it on your backend" }, [
      `${noun} created; the full key is shown once, keep it server-side${spec.use ? ` (${spec.use})` : ""}:`,
      `  ${key.secret}`,
      ...fields([
        ["id", key.id],
        ["prefix", key.prefix],
        ...(owner ? [["workspace", `${owner.id} (${owner.label})`] as [string, string]] : []),
        ["name", key.name],
        spec.permission(key),
        ["expires", key.expiresAt ? key.expiresAt.toISOString() : "never"],
      ]),
    ]);
  };
  return {
    /** Checks `create` flags before anything is opened; a bad value is a usage error. */
    checkInput(input: { name: string; scopes: S[]; expires?: string }): KeyInput<S> {
      const create = `${command} create`;
      const name = input.name.trim();
      if (name === "") throw new UsageError("--name must not be empty", create);
      if (name.length > MAX_NAME_LENGTH)
        throw new UsageError(`--name is longer than ${MAX_NAME_LENGTH} characters`, create);
      return {
        name,
        scopes: input.scopes,
        ...(input.expires === undefined ? {} : { expiresAt: parseExpiry(input.expires, Date.now(), create) }),
      };
    },

    /** Prints a key just issued, in full, once (with the workspace it belongs to, for builder keys). */
    created,

    /** `create` for a family without an owner: issue, then print. */
    async create(ctx: OperatorContext, input: KeyInput<S>): Promise<void> {
      await created(ctx, await family.issue(ctx.db, input));
    },

    /** `list`: the family's keys (of one workspace, when given) with their status. */
    async list(ctx: OperatorContext, workspace?: { id: string }): Promise<void> {
      const keys = await family.list(ctx.db, workspace ? { workspaceId: workspace.id } : {});
      const { title, width, cell } = spec.column;
      const human =
        keys.length === 0
          ? [spec.empty]
          : [
              `${"PREFIX".padEnd(16)}  ${"STATUS".padEnd(7)}  ${title.padEnd(width)}  ${"EXPIRES".padEnd(24)}  NAME`,
              ...keys.map(
                (k) =>
                  `${k.prefix.padEnd(16)}  ${k.status.padEnd(7)}  ${cell(k).padEnd(width)}  ${(k.expiresAt?.toISOString() ?? "never").padEnd(24)}  ${k.name}`,
              ),
            ];
      ctx.out.result({ ...(workspace ? { workspace } : {}), keys }, human);
    },

    /** `revoke`: effective on the key's very next request. */
    async revoke(ctx: OperatorContext, input: { key: string }): Promise<void> {
      const key = await family.find(ctx.db, input.key);
      if (!key) throw new OperatorError(`no ${noun} ${input.key} (see junction ${command} list)`);
      const revoked = await family.revoke(ctx.db, key.id);
      const after = (await family.find(ctx.db, key.id))!;
      ctx.out.result({ key: after, alreadyRevoked: !revoked }, [
        revoked ? `${noun} ${after.prefix} revoked` : `${noun} ${after.prefix} was already revoked`,
        ...fields([["revoked at", after.revokedAt?.toISOString() ?? "-"]]),
      ]);
    },
  };
}

/** `--scopes a,b`: a comma-separated list of the family's scopes, deduplicated; a usage error otherwise. */
export function parseScopes<S extends string>(value: string, known: readonly S[], command: string): S[] {
  const scopes = [
    ...new Set(
      value
        .split(",")
        .map((scope) => scope.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = scopes.filter((scope) => !(known as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--scopes takes a comma-separated list of ${known.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
      command,
    );
  return scopes as S[];
}
