import { type Address, type PublicClient, zeroAddress } from "viem";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { AGGREGATOR_GETTERS } from "../contracts/executor-constructor.ts";

/** The aggregator contracts an executor may call, or that the service's aggregator settings name. */
export type AggregatorTargets = { router?: Address; allowanceHolder?: Address; settlerRegistry?: Address };

/** The executor's aggregator immutables (docs/aggregator-execution.md): zero where an entry is disabled. */
export async function executorAggregatorTargets(
  client: Pick<PublicClient, "readContract">,
  executor: Address,
): Promise<Required<AggregatorTargets>> {
  const read = (field: keyof AggregatorTargets) =>
    client.readContract({
      address: executor,
      abi: executorArtifact.abi,
      functionName: AGGREGATOR_GETTERS[field],
    }) as Promise<Address>;
  const [router, allowanceHolder, settlerRegistry] = await Promise.all([
    read("router"),
    read("allowanceHolder"),
    read("settlerRegistry"),
  ]);
  return { router, allowanceHolder, settlerRegistry };
}

/**
 * What an operator must hear at start: each enabled aggregator whose configured contract is not the one the
 * executor was deployed to call. Its quotes still enter the public comparison, but run through the
 * executor (builder and partner quotes) they revert, so it can never win there.
 */
export function aggregatorWiringIssues(
  executor: Required<AggregatorTargets>,
  configured: AggregatorTargets,
): string[] {
  const issues: string[] = [];
  const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase();
  for (const [field, name] of [
    ["router", "aggregator-a's router"],
    ["allowanceHolder", "aggregator-b's allowance holder"],
    ["settlerRegistry", "aggregator-b's settler registry"],
  ] as const) {
    const wanted = configured[field];
    if (wanted === undefined || same(wanted, executor[field])) continue;
    issues.push(
      same(executor[field], zeroAddress)
        ? `${name} ${wanted} is configured, but the executor was deployed without it: builder and partner quotes cannot execute that aggregator`
        : `${name} ${wanted} is configured, but the executor calls ${executor[field]}: builder and partner quotes cannot execute that aggregator`,
    );
  }
  return issues;
}
