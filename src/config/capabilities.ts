/**
 * What this deployment can do right now. Clients check `deposits` before showing a deposit action
 * (SPEC "GET /api/v2/config": zaps are not enabled). Flags turn true only when the capability is built and
 * configured, so a client never offers something the service would refuse.
 */
export type Capabilities = {
  /** Zaps (swap-and-deposit) are not enabled. */
  zaps: false;
  /** Deposit actions are not offered. */
  deposits: false;
  /** Transfer creation and funding are disabled (SPEC "Fees and general rules" 5). */
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
