import { TRANSFER_SCOPES, transferKeys } from "../auth/transfer-keys.ts";
import { keyCommands, parseScopes } from "./key-family-commands.ts";

/**
 * `junction transfer key create|list|revoke`: transfer-estimate customer keys (`X-Service-Api-Key`;
 * docs/rules.md, auth rule 8; ours: transfer keys).
 */
export const transferKeyCommands = keyCommands({
  family: transferKeys,
  command: "transfer key",
  use: "X-Service-Api-Key: <key>",
  column: { title: "SCOPES", width: 19, cell: (key) => key.scopes.join(",") },
  permission: (key) => ["scopes", key.scopes.join(", ")],
  empty: "no transfer keys yet (junction transfer key create --name <name> --scopes estimates)",
});

/** `--scopes` of `transfer key create`. */
export const parseTransferScopes = (value: string) =>
  parseScopes(value, TRANSFER_SCOPES, "transfer key create");
