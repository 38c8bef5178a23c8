import type { PublicClient } from "viem";

/**
 * What Junction uses of a node beyond plain reads, each with what it does without (docs/operating.md,
 * "Choosing a node"). Nothing here is required: a node lacking any of them still serves every endpoint.
 */
export const NODE_FEATURES = {
  eth_simulateV1:
    "candidates are simulated with eth_call through a probe contract instead (gas measured before refunds)",
  eth_gasPrice: "the gas price is the block's base fee alone (docs/rules.md, comparison rule 12)",
  finalized:
    "receipts stay `confirming` and history cannot pin a snapshot; set JUNCTION_FINALITY_CONFIRMATIONS",
  websocket:
    "followed pool state polls the head, about 1.5 times a block (set JUNCTION_RPC_WS_URL to subscribe to new heads)",
} as const;

export type NodeFeature = keyof typeof NODE_FEATURES;

/**
 * What this process learned its node lacks: from the probe at start, then from any method the node answers
 * it does not have later (JSON-RPC -32601 or -32004). `/readyz` lists them.
 */
export class NodeFeatures {
  private readonly lacking = new Set<string>();

  /** Records that the node lacks `feature` (a feature above, or any method it said it does not have). */
  lack(feature: string): void {
    this.lacking.add(feature);
  }

  lacks(): string[] {
    return [...this.lacking].sort();
  }
}

/**
 * Asks the node, at start, for each feature it may lack: `eth_simulateV1` (an empty simulated block) and
 * `eth_gasPrice`, whose absence the transport reports as a missing method; `finalized`, decided by the
 * finality check (`finalizedMissing`); a WebSocket endpoint, which only configuration provides. Other
 * failures of the probes (a timeout) say nothing: the feature is learned at its first use instead.
 */
export async function probeNodeFeatures(
  client: Pick<PublicClient, "request">,
  features: NodeFeatures,
  at: { finalizedMissing: boolean; headsUrl: string | undefined },
): Promise<void> {
  const probes = [
    { method: "eth_simulateV1", params: [{ blockStateCalls: [{ calls: [] }] }, "latest"] },
    { method: "eth_gasPrice", params: [] },
  ] as const;
  await Promise.all(
    probes.map((probe) =>
      (client.request as (args: { method: string; params: readonly unknown[] }) => Promise<unknown>)(
        probe,
      ).catch(() => undefined),
    ),
  );
  if (at.finalizedMissing) features.lack("finalized");
  if (!at.headsUrl) features.lack("websocket");
}

/** What lacking `feature` costs: a feature above, or any other method the node said it does not have. */
const costOf = (feature: string) =>
  feature in NODE_FEATURES
    ? NODE_FEATURES[feature as NodeFeature]
    : "what needs it fails with the node's answer";

/** The start line naming what the node lacks and what each costs, or that it has all Junction uses. */
export function nodeFeaturesLine(lacks: readonly string[]): string {
  if (lacks.length === 0)
    return `node: has everything Junction uses (${Object.keys(NODE_FEATURES).join(", ")})`;
  return `node: lacks ${lacks.map((feature) => `${feature} (${costOf(feature)})`).join("; ")}`;
}

/** The one line that says a method the node lacks, once, and what that costs (docs/operating.md). */
export function missingMethodMessage(method: string): string {
  return `rpc: the node has no ${method}; ${costOf(method)}`;
}
