import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { createPoolIndex, type PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { learnTokenLayouts } from "./learn-token-layouts.ts";

/**
 * Token layouts learned in the background: a token's first quote is spared the two round trips of finding
 * its balance and allowance slots (four before they were searched at once).
 */
let devnet: TestDevnet;
let index: PoolIndex;
beforeAll(async () => {
  devnet = await startTestDevnet();
  index = createPoolIndex({
    client: devnet.publicClient,
    contracts: devnet.manifest.contracts,
    fromBlock: BigInt(devnet.manifest.deploymentBlock),
  });
  await index.sync();
});
afterAll(() => devnet?.dispose());

describe("token layouts learned in the background", () => {
  it("spare a token's first quote the slot search", async () => {
    const { contracts, tokens } = devnet.manifest;
    const token = (symbol: string) => tokens.find((t) => t.symbol === symbol)!.address;
    const request = { tokenIn: token("LINK"), tokenOut: token("DAI"), amountIn: 10n ** 20n };
    const roundTrips = async (quote: ReturnType<typeof createQuoter>) =>
      (await quote(request, new AbortController().signal)).rpc.roundTrips;

    const client = createChainClient({ url: devnet.rpcUrl, kind: "private" });
    const cold = createQuoter({ client, index, contracts, fixtures: createFixtures(client) });
    const coldFirst = await roundTrips(cold);
    const coldAgain = await roundTrips(cold);
    expect(coldFirst).toBeGreaterThan(coldAgain);

    const fixtures = createFixtures(client);
    const logged: string[] = [];
    const learner = learnTokenLayouts({
      index,
      fixtures,
      spender: contracts.executor,
      latestBlock: () => client.getBlockNumber(),
      logger: { info: (_: unknown, line: string) => logged.push(line), warn: () => {} } as never,
      intervalMs: 60_000,
    });
    await learner.done();
    learner.stop();
    expect(logged).toEqual([
      expect.stringMatching(/^learned the balance and allowance slots of \d+ tokens \(\d+ without/),
    ]);
    const learned = createQuoter({ client, index, contracts, fixtures });
    // The quoter's own first use (fee terms, the block's reads) on a pair of other tokens.
    await learned(
      { tokenIn: contracts.weth9, tokenOut: token("USDC"), amountIn: 10n ** 18n },
      new AbortController().signal,
    );
    // The slot search is two round trips (the balance's and the allowance's access lists, then probes, at
    // once); what remains of a pair's first quote is its pools' first reads.
    const learnedFirst = await roundTrips(learned);
    expect(learnedFirst).toBe(coldFirst - 2);
    expect(await roundTrips(learned)).toBe(coldAgain);
  });
});
