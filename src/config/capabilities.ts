/**
 * What this deployment can do right now. Clients check `deposits` before showing a deposit action
 * (docs/rules.md, public rule 3: zaps are not enabled). Flags turn true only when the capability is built and
 * configured, so a client never offers something the service would refuse.
 */
export type Capabilities = {
  /** Zaps (swap-and-deposit) are not enabled. */
  zaps: false;
  /** Deposit actions are not offered. */
  deposits: false;
  /** Transfer creation and funding are disabled (docs/rules.md, fee rule 5). */
  transferCreation: false;
  /** The service never signs or submits transactions; it returns unsigned ones. */
  submitsTransactions: false;
};

export const CAPABILITIES: Capabilities = {
  zaps: false,
  deposits: false,
  transferCreation: false,
  submitsTransactions: false,
};
