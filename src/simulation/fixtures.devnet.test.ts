import { encodeFunctionData, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { rebaseShares } from "../../test/rebase.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { createFixtures } from "./fixtures.ts";
import { SYNTHETIC_CALLER } from "./synthetic-caller.ts";

let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
/** Any fixed spender works; the executor plays this role in the pipeline. */
const SPENDER = "0x00000000000000000000000000000000000e0ec0" as const;
const RECEIVER = "0x000000000000000000000000000000000000bEEF" as const;

describe("simulation fixtures", () => {
  it("sets an exact balance and allowance for every supported layout, without touching token code", async () => {
    const fixtureFor = createFixtures(devnet.publicClient);
    const blockNumber = await devnet.publicClient.getBlockNumber();
    for (const symbol of ["USDC", "WBTC", "DAI", "SOLA", "NSPC", "TAX", "rUSD"]) {
      const tokenIn = token(symbol);
      const amountIn = 123_456_789n;
      const fixture = await fixtureFor({ tokenIn, amountIn, spender: SPENDER, blockNumber });
      expect(fixture.status, symbol).toBe("ready");
      if (fixture.status !== "ready") continue;
      expect(await fixture.validation, symbol).toBe("exact");
      const codeOverride = fixture.stateOverride.find((o) => o.address === tokenIn);
      expect(codeOverride?.code, symbol).toBeUndefined();

      // The spender can move exactly amountIn from the synthetic caller, and not one unit more.
      const move = (amount: bigint) =>
        devnet.publicClient.call({
          account: SPENDER,
          to: tokenIn,
          blockNumber,
          stateOverride: fixture.stateOverride,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: "transferFrom",
            args: [SYNTHETIC_CALLER, RECEIVER, amount],
          }),
        });
      await expect(move(amountIn), symbol).resolves.toBeDefined();
      await expect(move(amountIn + 1n), symbol).rejects.toThrow();
      // It holds one unit more than it may move: the pull leaves a remainder, as a wallet's usually does
      // (emptying the balance slot would earn a refund that wallet's transaction never gets).
      const held = await devnet.publicClient.readContract({
        address: tokenIn,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [SYNTHETIC_CALLER],
        blockNumber,
        stateOverride: fixture.stateOverride,
      });
      expect(held, symbol).toBe(amountIn + 1n);
    }
  });

  it("funds native ETH input through the caller's balance", async () => {
    const fixture = await createFixtures(devnet.publicClient)({
      tokenIn: zeroAddress,
      amountIn: 5n * 10n ** 18n,
      spender: SPENDER,
      blockNumber: await devnet.publicClient.getBlockNumber(),
    });
    expect(fixture.status).toBe("ready");
    if (fixture.status === "ready")
      expect(fixture.stateOverride[0]!.balance).toBeGreaterThan(5n * 10n ** 18n);
  });

  it("calls a computed (rebased) balance unsupported instead of faking it", async () => {
    const rUsd = token("rUSD");
    await rebaseShares(devnet, 1013n);

    const fixture = await createFixtures(devnet.publicClient)({
      tokenIn: rUsd,
      amountIn: 10n ** 18n,
      spender: SPENDER,
      blockNumber: await devnet.publicClient.getBlockNumber(),
    });
    expect(fixture).toEqual({ status: "unsupported", reason: "balance-slot-not-found" });
  });
});
