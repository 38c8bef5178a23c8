import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createQuoter } from "./create-quoter.ts";
import { buildExecutableQuote, type ExecutableQuoteDeps, expectedDelivery } from "./executable-quote.ts";
import { type ExecutionRequest, executionDeadline, minimumFor } from "./execution-terms.ts";
import type { QuoteResult } from "./quote-types.ts";

/**
 * The executable-quote step on a devnet: the transaction for real terms runs at the quote block and is
 * returned only when it delivers exactly the quote less the fee; otherwise a closed reason. When the
 * comparison built its candidates with the terms, the winner's run is the proof and nothing runs again.
 */
let devnet: TestDevnet;
let deps: ExecutableQuoteDeps;
let result: QuoteResult;
/** The same quote, its candidates built with `execution`. */
let built: QuoteResult;
const recipient = "0x00000000000000000000000000000000000b0b00" as const;
const execution: ExecutionRequest = {
  recipient,
  minimum: { slippageBps: 30 },
  deadline: { from: 0n, seconds: 900n },
};

beforeAll(async () => {
  devnet = await startTestDevnet();
  const client = devnet.publicClient as never;
  const contracts = devnet.manifest.contracts;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  const fixtures = createFixtures(client);
  deps = { client, contracts, fixtures };
  const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
  const quote = createQuoter({ client, index, contracts, fixtures });
  const request = { tokenIn: contracts.weth9, tokenOut: usdc, amountIn: parseEther("5") };
  result = await quote(request, new AbortController().signal);
  built = await quote({ ...request, execution }, new AbortController().signal);
});
afterAll(async () => {
  await devnet?.dispose();
});

describe("buildExecutableQuote", () => {
  const deadline = () => result.block.timestamp + 600n;

  it("returns the transaction with what the recipient received: the quote less the fee, exactly", async () => {
    const minOut = (expectedDelivery(result) * 99n) / 100n;
    const built = await buildExecutableQuote(deps, result, { recipient, minOut, deadline: deadline() });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.delivered).toBe(result.selected.grossAmountOut - result.selected.serviceFee);
    expect(built.delivered).toBe(result.selected.amountOut);
    expect(built.gas).toBeGreaterThan(0n);
    expect(built.tx).toMatchObject({ to: devnet.manifest.contracts.executor, value: 0n });
  });

  it("fails closed: a minimum above the quote reverts (insufficient-output), a past deadline reverts", async () => {
    const above = await buildExecutableQuote(deps, result, {
      recipient,
      minOut: expectedDelivery(result) + 1n,
      deadline: deadline(),
    });
    expect(above).toMatchObject({ ok: false, reason: "insufficient-output", error: "InsufficientOutput" });
    const expired = await buildExecutableQuote(deps, result, {
      recipient,
      minOut: 0n,
      deadline: result.block.timestamp - 1n,
    });
    expect(expired).toMatchObject({ ok: false, reason: "reverted", error: "DeadlineExpired" });
  });

  it("refuses a run that delivers other than the quote (output-mismatch)", async () => {
    const inflated = {
      ...result,
      selected: { ...result.selected, grossAmountOut: result.selected.grossAmountOut + 1n },
    };
    const built = await buildExecutableQuote(deps, inflated, { recipient, minOut: 0n, deadline: deadline() });
    expect(built).toMatchObject({ ok: false, reason: "output-mismatch" });
  });
});

describe("buildExecutableQuote on candidates built with the terms", () => {
  const terms = () => ({
    recipient,
    minOut: minimumFor(execution.minimum, expectedDelivery(built)),
    deadline: executionDeadline(execution.deadline, built.block.timestamp, built.selected.expiresAt),
  });
  /** No node and no fixtures: any encoding-and-run would throw. */
  const offline = (): ExecutableQuoteDeps => ({
    client: {} as never,
    contracts: devnet.manifest.contracts,
    fixtures: (() => {
      throw new Error("ran again");
    }) as never,
  });

  it("takes the selected candidate's run as the proof: its calldata, its gas, no request", async () => {
    expect(built.selected.simulation.status).toBe("simulated");
    expect(built.selected.terms).toEqual(terms());
    const proven = await buildExecutableQuote(offline(), built, terms());
    expect(proven.ok).toBe(true);
    if (!proven.ok || built.selected.simulation.status !== "simulated") return;
    expect(proven.tx.data).toBe(built.selected.tx.data);
    expect(proven.delivered).toBe(expectedDelivery(built));
    expect(proven.gas).toBe(built.selected.simulation.gas);
  });

  it("builds and runs the transaction when its terms are not the ones the candidate carries", async () => {
    const other = { ...terms(), minOut: terms().minOut - 1n };
    const ran = await buildExecutableQuote(deps, built, other);
    expect(ran.ok).toBe(true);
    if (!ran.ok) return;
    expect(ran.tx.data).not.toBe(built.selected.tx.data);
    expect(ran.delivered).toBe(expectedDelivery(built));
  });

  it("refuses a selected run that delivered other than the quote (output-mismatch), running nothing", async () => {
    const inflated = {
      ...built,
      selected: { ...built.selected, grossAmountOut: built.selected.grossAmountOut + 1n },
    };
    expect(await buildExecutableQuote(offline(), inflated, terms())).toMatchObject({
      ok: false,
      reason: "output-mismatch",
    });
  });
});
