import { type Address, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createAdmission } from "../quote/admission.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import type { QuoteResult } from "../quote/quote-types.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { type PartnerQuoteDeps, type PartnerQuoteRequest, quotePartner } from "./partner-quote.ts";

/**
 * A partner quote with a recipient runs its transaction once (docs/architecture.md, "The quote pipeline"):
 * every candidate is built for the recipient, minimum and deadline, so the winner's run in the comparison
 * is the proof of the transaction handed out, and nothing is encoded or simulated again. Counted by
 * JSON-RPC method on the client's own observer (after coalescing: what reached the node).
 */
let devnet: TestDevnet;
let deps: PartnerQuoteDeps;
let last: QuoteResult | undefined;
const methods = new Map<string, number>();

beforeAll(async () => {
  devnet = await startTestDevnet();
  const client = createChainClient(
    { url: devnet.rpcUrl, kind: "private" },
    {
      observe: (method) => {
        methods.set(method, (methods.get(method) ?? 0) + 1);
        return () => {};
      },
    },
  );
  const contracts = devnet.manifest.contracts;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  const fixtures = createFixtures(client);
  const quote = createQuoter({ client, index, contracts, fixtures });
  deps = {
    quote: async (request, signal) => {
      last = await quote(request, signal);
      return last;
    },
    admission: createAdmission({ perMinute: 10_000 }),
    client,
    contracts,
    fixtures,
    now: Date.now,
  };
});
afterAll(async () => {
  await devnet?.dispose();
});

const token = (symbol: string) =>
  devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase() as Address;

/** The quote's requests by method, after one identical quote warmed the slot layouts and block reads. */
async function counted(request: PartnerQuoteRequest) {
  const ask = () => quotePartner(deps, request, { caller: "count", admitted: async () => {} });
  await ask();
  methods.clear();
  const quote = await ask();
  return { quote, result: last!, methods: Object.fromEntries(methods) as Record<string, number> };
}

describe("quotePartner with a recipient", () => {
  it("sends no more requests than the quote without one: the selected candidate's run is the proof", async () => {
    const recipient = devnet.wallet(7).account!.address.toLowerCase() as Address;
    const cases: [Address, Address, bigint][] = [
      [devnet.manifest.contracts.weth9.toLowerCase() as Address, token("USDC"), parseEther("3")],
      [zeroAddress, token("USDC"), parseEther("2")],
      [token("LINK"), token("DAI"), parseEther("100")],
    ];
    const rows: string[] = [];
    for (const [tokenIn, tokenOut, amountIn] of cases) {
      const plain = await counted({ tokenIn, tokenOut, amountIn });
      const swap = await counted({ tokenIn, tokenOut, amountIn, swap: { recipient } });
      rows.push(
        `${tokenIn}->${tokenOut}: ${JSON.stringify(plain.methods)} / ${JSON.stringify(swap.methods)}`,
      );
      expect(swap.quote.ok).toBe(true);
      if (!swap.quote.ok || !swap.quote.tx || !swap.quote.swap) throw new Error("no transaction");
      const simulated = swap.result.comparison.filter((c) => c.simulation.status === "simulated").length;
      // One simulating request per candidate, whether a transaction is handed out or not.
      expect(swap.methods.eth_simulateV1).toBe(simulated);
      expect(swap.methods).toEqual(plain.methods);
      // The transaction is the winner's calldata, and its gas the winner's measured gas.
      const { selected } = swap.result;
      expect(swap.quote.tx.data).toBe(selected.tx.data);
      expect(selected.terms?.recipient).toBe(recipient);
      if (selected.simulation.status !== "simulated") throw new Error("not simulated");
      expect(swap.quote.swap.executorGas).toBe(selected.simulation.gas);
      expect(swap.quote.gas).toBe(selected.simulation.gas);
    }
    console.info(rows.join("\n"));
  });
});
