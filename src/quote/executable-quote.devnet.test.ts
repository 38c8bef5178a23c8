import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createQuoter } from "./create-quoter.ts";
import { buildExecutableQuote, type ExecutableQuoteDeps, expectedDelivery } from "./executable-quote.ts";
import type { QuoteResult } from "./quote-types.ts";

/**
 * The executable-quote step on a devnet: the transaction for real terms runs at the quote block and is
 * returned only when it delivers exactly the quote less the fee; otherwise a closed reason.
 */
let devnet: TestDevnet;
let deps: ExecutableQuoteDeps;
let result: QuoteResult;
const recipient = "0x00000000000000000000000000000000000b0b00" as const;

beforeAll(async () => {
  devnet = await startTestDevnet();
  const client = devnet.publicClient as never;
  const contracts = devnet.manifest.contracts;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  const fixtures = createFixtures(client);
  deps = { client, contracts, fixtures };
  const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
  result = await createQuoter({ client, index, contracts, fixtures })(
    { tokenIn: contracts.weth9, tokenOut: usdc, amountIn: parseEther("5") },
    new AbortController().signal,
  );
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
    expect(built.delivered).toBe(result.selected.grossAmountOut - result.selected.fee);
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
