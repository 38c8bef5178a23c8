import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";

/**
 * `POST /api/v2/builders/integration` through the HTTP surface on a devnet: plans with the defaults read
 * from the registry (the demo builder's fee, then suspended, capped and unregistered builders), the body
 * rules as answered over HTTP, and the gate.
 */
let devnet: TestDevnet;
let api: BuilderTestApi;
let key: string;

const PATH = "/api/v2/builders/integration";
const GOVERNANCE = 1;
let PAYER: Address;
let USDC: Address;
let DAI: Address;
let WETH: Address;
let WBTC: Address;

type Leg = Record<string, unknown> & {
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  builderFeeBps: number;
};
type Plan = Record<string, unknown> & { legs: Leg[]; swapCount: number };

const token = (symbol: string) =>
  devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase() as Address;

function plan(input: Record<string, unknown>, options: { key?: string; action?: string } = {}) {
  return api.call("POST", PATH, {
    key: options.key ?? key,
    body: {
      action: options.action ?? "multi-plan",
      input: { execution: "sequential", payer: PAYER, ...input },
    },
  });
}

async function planned(input: Record<string, unknown>): Promise<Plan> {
  const response = await plan(input);
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body as Plan;
}

async function governance(functionName: "setBuilderEnabled" | "setBuilderMaxFee", args: readonly unknown[]) {
  const wallet = devnet.wallet(GOVERNANCE);
  const hash = await wallet.writeContract({
    address: devnet.manifest.contracts.builderRegistry,
    abi: builderRegistryArtifact.abi,
    functionName,
    args: args as never,
    chain: wallet.chain,
    account: wallet.account!,
  });
  expect((await devnet.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet);
  const workspace = await api.workspace({ code: "junction-demo", plan: "growth" });
  key = await api.key(workspace.id, ["quote"]);
  PAYER = devnet.manifest.accounts[3]!.address;
  [USDC, DAI, WETH, WBTC] = [token("USDC"), token("DAI"), token("WETH"), token("WBTC")];
});

afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

describe("POST /api/v2/builders/integration", () => {
  it("plans one leg per (input, output) pair with the defaults: payer as recipient, 50 bps, the registered fee", async () => {
    const body = await planned({
      inputs: [
        { token: USDC, amount: "1000000001" },
        { token: DAI, amount: "1000000000000000003" },
      ],
      outputs: [
        { token: WETH, weightBps: 3333 },
        { token: WBTC, weightBps: 6667 },
      ],
    });
    const payer = PAYER.toLowerCase();
    const leg = {
      chainId: CHAIN_ID,
      payer,
      recipient: payer,
      builderCode: "junction-demo",
      builderFeeBps: 10,
      slippageBps: 50,
    };
    expect(body).toEqual({
      chainId: CHAIN_ID,
      execution: "sequential",
      atomic: false,
      payer,
      recipient: payer,
      legs: [
        { ...leg, tokenIn: USDC, tokenOut: WETH, amountIn: "333300000" },
        { ...leg, tokenIn: USDC, tokenOut: WBTC, amountIn: "666700001" },
        { ...leg, tokenIn: DAI, tokenOut: WETH, amountIn: "333300000000000000" },
        { ...leg, tokenIn: DAI, tokenOut: WBTC, amountIn: "666700000000000003" },
      ],
      swapCount: 4,
      allocation: "weighted-per-input",
      partialCompletion: "completed-legs-stay-completed",
    });
  });

  it("refuses a split that leaves a leg with nothing to swap", async () => {
    const response = await plan({
      inputs: [{ token: DAI, amount: "1" }],
      outputs: [
        { token: WETH, weightBps: 5000 },
        { token: WBTC, weightBps: 5000 },
      ],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "UNSUPPORTED_TERMS", issues: [{ path: "input.inputs.0.amount" }] },
    });
  });

  it("refuses the executor as the legs' recipient, whichever field named it (docs/rules.md, ours: swap recipient)", async () => {
    const executor = devnet.manifest.contracts.executor;
    const terms = {
      inputs: [{ token: DAI, amount: "1000000" }],
      outputs: [{ token: WETH, weightBps: 10_000 }],
    };
    for (const [input, path] of [
      [{ ...terms, recipient: executor }, "input.recipient"],
      [{ ...terms, payer: executor }, "input.payer"],
    ] as const) {
      const response = await plan(input);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: "INVALID_REQUEST", issues: [{ path, message: "must not be the executor" }] },
      });
    }
  });

  it("takes explicit terms, plans 16 legs for 4 × 4, and skips an output equal to its input", async () => {
    const recipient = devnet.manifest.accounts[4]!.address;
    const tokens = [USDC, DAI, WETH, WBTC];
    const others = [token("LINK"), token("UNI"), token("AAVE"), token("OP")];
    const full = await planned({
      recipient,
      inputs: tokens.map((t) => ({ token: t, amount: "1000000" })),
      outputs: others.map((t) => ({ token: t, weightBps: 2500 })),
      slippageBps: 1,
      builderFeeBps: 0,
    });
    expect(full.swapCount).toBe(16);
    expect(full.legs.every((l) => l.recipient === recipient.toLowerCase() && l.slippageBps === 1)).toBe(true);
    expect(full.legs.every((l) => l.builderFeeBps === 0)).toBe(true);
    for (const t of tokens) {
      const legs = full.legs.filter((l) => l.tokenIn === t);
      expect(legs.reduce((sum, l) => sum + BigInt(l.amountIn), 0n)).toBe(1_000_000n);
    }

    const skipped = await planned({
      inputs: [
        { token: USDC, amount: "100" },
        { token: WETH.toUpperCase().replace("0X", "0x"), amount: "100" },
      ],
      outputs: [
        { token: WETH, weightBps: 4000 },
        { token: DAI, weightBps: 6000 },
      ],
    });
    expect(skipped.legs.map((l) => [l.tokenIn, l.tokenOut, l.amountIn])).toEqual([
      [USDC, WETH, "40"],
      [USDC, DAI, "60"],
      [WETH, DAI, "60"],
    ]);
    const none = await plan({
      inputs: [{ token: USDC, amount: "5" }],
      outputs: [{ token: USDC, weightBps: 10_000 }],
    });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: { code: "UNSUPPORTED_TERMS" } });
  });

  it("follows the registry: a capped builder refuses a higher fee, suspended and unregistered ones default to 0", async () => {
    const terms = {
      inputs: [{ token: USDC, amount: "1000" }],
      outputs: [{ token: WETH, weightBps: 10_000 }],
    };
    const { builderId } = devnet.manifest.junction.demoBuilder;

    await governance("setBuilderMaxFee", [builderId, 20]);
    const above = await plan({ ...terms, builderFeeBps: 21 });
    expect(above.status).toBe(400);
    expect(await above.json()).toMatchObject({
      error: { code: "BUILDER_FEE_ABOVE_CAP", issues: [{ path: "input.builderFeeBps" }] },
    });
    expect((await planned({ ...terms, builderFeeBps: 20 })).legs[0]!.builderFeeBps).toBe(20);

    await governance("setBuilderEnabled", [builderId, false]);
    try {
      expect((await planned(terms)).legs[0]!.builderFeeBps).toBe(0);
    } finally {
      await governance("setBuilderEnabled", [builderId, true]);
    }

    const unregistered = await planned({ ...terms, builderCode: "not-registered" });
    expect(unregistered.legs[0]).toMatchObject({ builderCode: "not-registered", builderFeeBps: 0 });
    expect(
      (await planned({ ...terms, builderCode: "not-registered", builderFeeBps: 7 })).legs[0]!.builderFeeBps,
    ).toBe(7);
  });

  it("answers the body rules over HTTP", async () => {
    const terms = {
      inputs: [{ token: USDC, amount: "1000" }],
      outputs: [{ token: WETH, weightBps: 10_000 }],
    };
    const action = await plan(terms, { action: "single-plan" });
    expect(action.status).toBe(400);
    expect(await action.json()).toMatchObject({ error: { code: "UNSUPPORTED_ACTION" } });

    const extra = await plan({ ...terms, inputs: [{ token: USDC, amount: "1000", memo: "x" }] });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toMatchObject({
      error: {
        code: "INVALID_REQUEST",
        issues: [{ path: "input.inputs.0.memo", message: "unknown property" }],
      },
    });

    const weights = await plan({ ...terms, outputs: [{ token: WETH, weightBps: 9_999 }] });
    expect(weights.status).toBe(400);
    expect(await weights.json()).toMatchObject({
      error: { code: "INVALID_REQUEST", issues: [{ path: "input.outputs" }] },
    });

    const repeated = await plan({
      ...terms,
      outputs: [
        { token: WETH, weightBps: 5000 },
        { token: WETH, weightBps: 5000 },
      ],
    });
    expect(await repeated.json()).toMatchObject({
      error: { code: "INVALID_REQUEST", issues: [{ path: "input.outputs.1.token" }] },
    });

    for (const init of [{ body: "{not json" }, { body: "" }]) {
      const response = await api.app.request(PATH, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        ...init,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "INVALID_REQUEST" } });
    }
    const noContentType = await api.app.request(PATH, {
      method: "POST",
      headers: { "x-api-key": key },
      body: JSON.stringify({
        action: "multi-plan",
        input: { execution: "sequential", payer: PAYER, ...terms },
      }),
    });
    expect(noContentType.status).toBe(400);
    // An empty POST with no content type at all is a 400 too, never a 500.
    const empty = await api.app.request(PATH, { method: "POST", headers: { "x-api-key": key } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: "INVALID_REQUEST" } });
  });

  it("needs a live key with the quote scope", async () => {
    const terms = {
      inputs: [{ token: USDC, amount: "1000" }],
      outputs: [{ token: WETH, weightBps: 10_000 }],
    };
    expect((await plan(terms, { key: "" })).status).toBe(401);
    const workspace = await api.workspace();
    const response = await plan(terms, { key: await api.key(workspace.id, ["tokens", "receipts"]) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
  });
});
