import { partnerKeys } from "../auth/partner-keys.ts";
import { keyCommands } from "./key-family-commands.ts";

/**
 * `junction partner key create|list|revoke`: partner API bearer keys (docs/rules.md, auth rule 7; ours:
 * partner keys). `--swap` grants the quote's transaction parameters.
 */
export const partnerKeyCommands = keyCommands({
  family: partnerKeys,
  command: "partner key",
  use: "Authorization: Bearer <key>",
  column: { title: "SWAP", width: 4, cell: (key) => (key.swap ? "yes" : "no") },
  permission: (key) => [
    "swap",
    key.shown.swap ? "yes (recipient, slippageBps, minOut, deadline)" : "no (quotes only)",
  ],
  empty: "no partner keys yet (junction partner key create --name <name> [--swap])",
});
