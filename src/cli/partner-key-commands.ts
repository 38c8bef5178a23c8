import {
  createPartnerKey,
  findPartnerKey,
  listPartnerKeys,
  type PartnerKeyView,
  revokePartnerKey,
} from "../auth/partner-keys.ts";
import { OperatorError, UsageError } from "./cli-errors.ts";
import { parseExpiry } from "./expiry.ts";
import type { OperatorContext } from "./operator-context.ts";
import { fields } from "./output.ts";

const MAX_NAME_LENGTH = 200;

export type PartnerKeyInput = { name: string; swap: boolean; expiresAt?: Date };

/** Checks `partner key create` flags before anything is opened; a bad value is a usage error. */
export function checkPartnerKeyInput(input: {
  name: string;
  swap: boolean;
  expires?: string;
}): PartnerKeyInput {
  const command = "partner key create";
  const name = input.name.trim();
  if (name.length > MAX_NAME_LENGTH)
    throw new UsageError(`--name is longer than ${MAX_NAME_LENGTH} characters`, command);
  return {
    name,
    swap: input.swap,
    ...(input.expires === undefined ? {} : { expiresAt: parseExpiry(input.expires, Date.now(), command) }),
  };
}

/**
 * `junction partner key create`: a partner API bearer key, shown in full once (docs/rules.md, auth rule 7;
 * ours: partner keys). `--swap` grants the quote's transaction parameters.
 */
export async function createPartnerKeyCommand(ctx: OperatorContext, input: PartnerKeyInput): Promise<void> {
  const key = await createPartnerKey(ctx.db, input);
  const view = {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    swap: key.swap,
    expiresAt: key.expiresAt,
    secret: key.secret,
  };
  ctx.out.result({ key: view, note: "the secret is shown once; keep it on your backend" }, [
    "partner key created; the full key is shown once, keep it server-side (Authorization: Bearer <key>):",
    `  ${key.secret}`,
    ...fields([
      ["id", key.id],
      ["prefix", key.prefix],
      ["name", key.name],
      ["swap", key.swap ? "yes (recipient, slippageBps, minOut, deadline)" : "no (quotes only)"],
      ["expires", key.expiresAt ? key.expiresAt.toISOString() : "never"],
    ]),
  ]);
}

/** `junction partner key list`: every partner key with its status; never a secret or a hash. */
export async function listPartnerKeysCommand(ctx: OperatorContext): Promise<void> {
  const keys = await listPartnerKeys(ctx.db);
  const human =
    keys.length === 0
      ? ["no partner keys yet (junction partner key create --name <name> [--swap])"]
      : [
          `${"PREFIX".padEnd(16)}  ${"STATUS".padEnd(7)}  ${"SWAP".padEnd(4)}  ${"EXPIRES".padEnd(24)}  NAME`,
          ...keys.map(
            (k) =>
              `${k.prefix.padEnd(16)}  ${k.status.padEnd(7)}  ${(k.swap ? "yes" : "no").padEnd(4)}  ${(k.expiresAt?.toISOString() ?? "never").padEnd(24)}  ${k.name}`,
          ),
        ];
  ctx.out.result({ keys }, human);
}

/** `junction partner key revoke`: effective on the key's very next request. Revoking twice is not an error. */
export async function revokePartnerKeyCommand(ctx: OperatorContext, input: { key: string }): Promise<void> {
  const key = await findPartnerKey(ctx.db, input.key);
  if (!key) throw new OperatorError(`no partner key ${input.key} (see junction partner key list)`);
  const revoked = await revokePartnerKey(ctx.db, key.id);
  const after: PartnerKeyView = (await findPartnerKey(ctx.db, key.id))!;
  ctx.out.result({ key: after, alreadyRevoked: !revoked }, [
    revoked ? `partner key ${after.prefix} revoked` : `partner key ${after.prefix} was already revoked`,
    ...fields([["revoked at", after.revokedAt?.toISOString() ?? "-"]]),
  ]);
}
