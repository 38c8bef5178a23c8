import { type Address, type PublicClient, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createBaseApp } from "../api/base-app.ts";
import { TRANSFER_FEE_BPS } from "../devnet/universe.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { QUOTE_SOURCES } from "../providers/quote-sources.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createTransferFeeMeter } from "../simulation/transfer-fee.ts";
import { createAdmission } from "./admission.ts";
import { createQuoter } from "./create-quoter.ts";
import type { Assessment } from "./quote-types.ts";
import { explainTransferFees } from "./transfer-fee-explanation.ts";

/**
 * The comparison says why a taxed token's candidates fail (docs/rules.md, comparison rule 4a): against the
 * devnet's fee-on-transfer token, every candidate of a pair with it reverts, and the quote's 422 names the
 * token and its configured fee with reason `token-transfer-fee`; a failed candidate moving it carries the
 * reason and the fee; a failure with no taxed token stays as it was.
 */
let devnet: TestDevnet;
let quote: ReturnType<typeof createQuoter>;
let app: ReturnType<typeof createBaseApp>;

beforeAll(async () => {
  devnet = await startTestDevnet();
  const { contracts } = devnet.manifest;
  const client = devnet.publicClient as PublicClient;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  quote = createQuoter({ client, index, contracts, fixtures: createFixtures(client) });
  app = createBaseApp({
    contracts,
    providers: () =>
      QUOTE_SOURCES.map((id) => ({ id, kind: "aggregator" as const, enabled: id === "service" })),
    latestBlock: () => client.getBlockNumber(),
    logError: (error) => {
      throw error;
    },
    quote,
    admission: createAdmission({ perMinute: 10_000 }),
  });
});
afterAll(() => devnet?.dispose());

const token = (symbol: string) =>
  (symbol === "WETH"
    ? devnet.manifest.contracts.weth9
    : devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address
  ).toLowerCase() as Address;

describe("transfer fees in the comparison", () => {
  it("answers 422 NO_EXECUTABLE_ROUTE naming the taxed token and its fee, as input, output or both sides", async () => {
    const tax = token("TAX");
    for (const [tokenIn, tokenOut, amountIn, side] of [
      [tax, token("WETH"), parseEther("100"), "refuses an input"],
      [token("WETH"), tax, parseEther("1"), "routes to it"],
      [tax, token("USDC"), parseEther("100"), "refuses an input"],
    ] as const) {
      const query = new URLSearchParams({
        chainId: "4663",
        tokenIn,
        tokenOut,
        amountIn: amountIn.toString(),
      });
      const response = await app.request(`/api/v2/quote?${query}`);
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as {
        error: { code: string; reason: string; message: string };
      };
      expect(error.code).toBe("NO_EXECUTABLE_ROUTE");
      expect(error.reason).toBe("token-transfer-fee");
      expect(error.message).toContain(`${tax} takes a ${TRANSFER_FEE_BPS} bps fee on transfer`);
      expect(error.message).toContain(side);
    }
  });

  it("puts the reason and the fee on a failed candidate that moves the taxed token, and leaves the rest", async () => {
    const measure = createTransferFeeMeter(devnet.publicClient);
    const block = await devnet.publicClient.getBlockNumber();
    const request = { tokenIn: token("WETH"), tokenOut: token("USDC"), amountIn: parseEther("1") };
    const hop = (tokenIn: Address, tokenOut: Address, amountIn: bigint, amountOut: bigint) => ({
      pool: {} as never,
      tokenIn,
      tokenOut,
      amountIn,
      amountOut,
    });
    const candidate = (id: string, hops: ReturnType<typeof hop>[], simulation: Assessment["simulation"]) =>
      ({
        id,
        provider: "service",
        amountOut: 3_000n * 10n ** 6n,
        grossAmountOut: 3_000n * 10n ** 6n,
        branches: [{ amountIn: request.amountIn, amountOut: 3_000n * 10n ** 6n, hops }],
        simulation,
      }) as unknown as Assessment;
    const reverted = { status: "failed", reason: "insufficient-output", stage: "simulation" } as const;
    const direct = [hop(request.tokenIn, request.tokenOut, request.amountIn, 3_000n * 10n ** 6n)];
    const throughTax = [
      hop(request.tokenIn, token("TAX"), request.amountIn, 1_500n * 10n ** 18n),
      hop(token("TAX"), request.tokenOut, 1_500n * 10n ** 18n, 3_000n * 10n ** 6n),
    ];
    const simulated = { status: "simulated", amountOut: 3_000n * 10n ** 6n, gas: 100_000n } as const;

    const explained = await explainTransferFees(measure, request, block, [
      candidate("service-1", direct, simulated),
      candidate("service-2", throughTax, { ...reverted, error: "InsufficientOutput" }),
      candidate("service-3", direct, reverted),
    ]);
    expect(explained.taxed).toEqual([{ token: token("TAX"), bps: TRANSFER_FEE_BPS }]);
    expect(explained.assessments.map((a) => a.simulation)).toEqual([
      simulated,
      {
        status: "failed",
        reason: "token-transfer-fee",
        stage: "simulation",
        error: "InsufficientOutput",
        transferFee: { token: token("TAX"), bps: TRANSFER_FEE_BPS },
      },
      reverted,
    ]);
    expect(explained.warnings).toEqual([
      `${token("TAX")} takes a ${TRANSFER_FEE_BPS} bps fee on transfer (simulated at block ${block}): it arrives short of what the pools quote, so routes through it fail their minimum`,
    ]);

    // Nothing failed: nothing is measured, and nothing changes.
    let asked = 0;
    const counting = async (...args: Parameters<typeof measure>) => {
      asked += 1;
      return measure(...args);
    };
    const clean = [candidate("service-1", direct, simulated)];
    expect(await explainTransferFees(counting, request, block, clean)).toEqual({
      assessments: clean,
      taxed: [],
      warnings: [],
    });
    expect(asked).toBe(0);
  });
});
