import {
  createTransferKey,
  findTransferKey,
  listTransferKeys,
  revokeTransferKey,
  TRANSFER_SCOPES,
  type TransferKeyView,
  type TransferScope,
} from "../auth/transfer-keys.ts";
import { OperatorError, UsageError } from "./cli-errors.ts";
import { parseExpiry } from "./expiry.ts";
import type { OperatorContext } from "./operator-context.ts";
import { fields } from "./output.ts";

const MAX_NAME_LENGTH = 200;
const COMMAND = "transfer key create";

export type TransferKeyInput = { name: string; scopes: TransferScope[]; expiresAt?: Date };

/** Checks `transfer key create` flags before anything is opened; a bad value is a usage error. */
export function checkTransferKeyInput(input: {
  name: string;
  scopes: string;
  expires?: string;
}): TransferKeyInput {
  const name = input.name.trim();
  if (name === "") throw new UsageError("--name must not be empty", COMMAND);
  if (name.length > MAX_NAME_LENGTH)
    throw new UsageError(`--name is longer than ${MAX_NAME_LENGTH} characters`, COMMAND);
  const scopes = [
    ...new Set(
      input.scopes
        .split(",")
        .map((scope) => scope.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = scopes.filter((scope) => !(TRANSFER_SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--scopes takes a comma-separated list of ${TRANSFER_SCOPES.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
      COMMAND,
    );
  return {
    name,
    scopes: scopes as TransferScope[],
    ...(input.expires === undefined ? {} : { expiresAt: parseExpiry(input.expires, Date.now(), COMMAND) }),
  };
}

/**
 * `junction transfer key create`: a transfer-estimate customer key (`X-Service-Api-Key`), shown in full once
 * (docs/rules.md, auth rule 8; ours: transfer keys).
 */
export async function createTransferKeyCommand(ctx: OperatorContext, input: TransferKeyInput): Promise<void> {
  const key = await createTransferKey(ctx.db, input);
  const view = {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
    secret: key.secret,
  };
  ctx.out.result({ key: view, note: "the secret is shown once; keep it on your backend" }, [
    "transfer key created; the full key is shown once, keep it server-side (X-Service-Api-Key: <key>):",
    `  ${key.secret}`,
    ...fields([
      ["id", key.id],
      ["prefix", key.prefix],
      ["name", key.name],
      ["scopes", key.scopes.join(", ")],
      ["expires", key.expiresAt ? key.expiresAt.toISOString() : "never"],
    ]),
  ]);
}

/** `junction transfer key list`: every transfer key with its status; never a secret or a hash. */
export async function listTransferKeysCommand(ctx: OperatorContext): Promise<void> {
  const keys = await listTransferKeys(ctx.db);
  const human =
    keys.length === 0
      ? ["no transfer keys yet (junction transfer key create --name <name> --scopes estimates)"]
      : [
          `${"PREFIX".padEnd(16)}  ${"STATUS".padEnd(7)}  ${"SCOPES".padEnd(19)}  ${"EXPIRES".padEnd(24)}  NAME`,
          ...keys.map(
            (k) =>
              `${k.prefix.padEnd(16)}  ${k.status.padEnd(7)}  ${k.scopes.join(",").padEnd(19)}  ${(k.expiresAt?.toISOString() ?? "never").padEnd(24)}  ${k.name}`,
          ),
        ];
  ctx.out.result({ keys }, human);
}

/** `junction transfer key revoke`: effective on the key's very next request. Revoking twice is not an error. */
export async function revokeTransferKeyCommand(ctx: OperatorContext, input: { key: string }): Promise<void> {
  const key = await findTransferKey(ctx.db, input.key);
  if (!key) throw new OperatorError(`no transfer key ${input.key} (see junction transfer key list)`);
  const revoked = await revokeTransferKey(ctx.db, key.id);
  const after: TransferKeyView = (await findTransferKey(ctx.db, key.id))!;
  ctx.out.result({ key: after, alreadyRevoked: !revoked }, [
    revoked ? `transfer key ${after.prefix} revoked` : `transfer key ${after.prefix} was already revoked`,
    ...fields([["revoked at", after.revokedAt?.toISOString() ?? "-"]]),
  ]);
}
