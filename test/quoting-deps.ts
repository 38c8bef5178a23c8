import type { QuotingDeps } from "../src/api/routes/quoting-deps.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import type { QuoteProvider } from "../src/providers/provider.ts";
import { createAdmission } from "../src/quote/admission.ts";
import { createQuoter } from "../src/quote/create-quoter.ts";
import { createFixtures } from "../src/simulation/fixtures.ts";
import { createTransferFeeMeter } from "../src/simulation/transfer-fee.ts";
import type { Store } from "../src/store/create-store.ts";
import type { TestDevnet } from "./devnet.ts";

/** Third-party sources for a test's quoter, with each one's deadline. */
export type TestQuotingProviders = { providers: readonly QuoteProvider[]; deadlineMs: number };

/**
 * The deps a keyed quoting surface gets from the service, on a test devnet and `store`: a synced pool
 * index, the quoter and fixtures on the devnet's client, and an admission that never refuses on rate.
 */
export async function testQuotingDeps(
  devnet: TestDevnet,
  store: Store,
  options: {
    now?: () => number;
    admission?: ReturnType<typeof createAdmission>;
    /** Another client on the devnet (e.g. the service's, with its own finality rule). */
    client?: QuotingDeps["client"];
    /** Third-party sources compared beside Junction's own routes (test/aggregator-providers.ts). */
    providers?: TestQuotingProviders;
  } = {},
): Promise<QuotingDeps> {
  const client = options.client ?? (devnet.publicClient as never);
  const contracts = devnet.manifest.contracts;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  const fixtures = createFixtures(client);
  const transferFees = createTransferFeeMeter(client);
  return {
    db: store.db,
    client,
    deployment: devnet.manifest,
    index,
    quote: createQuoter({
      client,
      index,
      contracts,
      fixtures,
      transferFees,
      ...(options.providers
        ? { providers: options.providers.providers, providerDeadlineMs: options.providers.deadlineMs }
        : {}),
    }),
    fixtures,
    transferFees,
    admission: options.admission ?? createAdmission({ perMinute: 10_000 }),
    now: options.now ?? Date.now,
  };
}
