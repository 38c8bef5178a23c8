import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createPublicClient, createWalletClient, getAddress, http, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junctionChain } from "../../src/chain/chain.ts";
import { DeploymentSchema } from "../../src/config/deployment.ts";
import { UNISWAP_PRESETS } from "../../src/config/uniswap-presets.ts";
import { v2PairAddress, v3PoolAddress } from "../../src/liquidity/pool-index/canonical.ts";
import { anvilAccount, type CanonicalChain, startCanonicalUniswapChain } from "../canonical-uniswap.ts";
import { builderSwapToFinality } from "./builder-swap-flow.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * `junction deploy` with `"uniswap": "ethereum-canonical"` onto a fresh anvil that holds the official
 * Uniswap contracts at their canonical addresses (test/canonical-uniswap.ts), then `junction start` on the
 * written file: the index finds the pools through the canonical factories and init code hashes, and a
 * public quote is simulated through the new executor against the canonical V2 pair, and a builder swap
 * settles through it to finality.
 */
const CANONICAL = UNISWAP_PRESETS["ethereum-canonical"];
const run = promisify(execFile);
let chain: CanonicalChain;
let dir: string;
let service: SpawnedService | undefined;

beforeAll(async () => {
  chain = await startCanonicalUniswapChain();
  dir = mkdtempSync(join(tmpdir(), "junction-canonical-"));
}, 120_000);
afterAll(async () => {
  service?.kill();
  await chain?.anvil.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("junction deploy on the canonical Uniswap addresses", () => {
  it("places pools where the canonical init code hashes say", () => {
    expect(chain.v2Pair.toLowerCase()).toBe(
      v2PairAddress(
        CANONICAL.v2Factory,
        CANONICAL.v2PairInitCodeHash,
        CANONICAL.weth9,
        chain.usdc,
      ).toLowerCase(),
    );
    expect(chain.v3Pool.toLowerCase()).toBe(
      v3PoolAddress(
        CANONICAL.v3Factory,
        CANONICAL.v3PoolInitCodeHash,
        CANONICAL.weth9,
        chain.usdc,
        3000,
      ).toLowerCase(),
    );
  });

  it("deploys from a plan naming the preset, and the service quotes through the canonical pools", async () => {
    const planPath = join(dir, "plan.json");
    const deploymentPath = join(dir, "deployment.json");
    // The example plan as written (docs/deploy-plans/ethereum-canonical.json), with this chain's test token.
    const example = JSON.parse(readFileSync("docs/deploy-plans/ethereum-canonical.json", "utf8"));
    writeFileSync(planPath, JSON.stringify({ ...example, tokens: [...example.tokens, chain.usdc] }));
    const deployed = await run(
      process.execPath,
      ["bin/junction.js", "deploy", "--plan", planPath, "--out", deploymentPath, "--json"],
      {
        env: {
          ...process.env,
          JUNCTION_RPC_URL: chain.rpcUrl,
          JUNCTION_DEPLOYER_KEY: `0x${Buffer.from(anvilAccount(9).getHdKey().privateKey!).toString("hex")}`,
        },
      },
    );
    expect(deployed.stderr).toMatch(
      /preset ethereum-canonical: no code on this chain for v2Router02 .*; left out of the deployment file/,
    );
    const written = DeploymentSchema.parse(JSON.parse(readFileSync(deploymentPath, "utf8")));
    expect(JSON.parse(deployed.stdout).deployment.contracts.executor).toBe(written.contracts.executor);
    for (const field of [
      "weth9",
      "v2Factory",
      "v3Factory",
      "v4PoolManager",
      "v4PositionManager",
      "v4StateView",
    ] as const)
      expect(getAddress(written.contracts[field]!)).toBe(getAddress(CANONICAL[field]));
    expect(written.contracts.v2PairInitCodeHash).toBe(CANONICAL.v2PairInitCodeHash);
    // Permit2 has code (placed like Uniswap's tests place it); the routers and quoters were left out.
    expect(written.contracts.permit2).toBe(CANONICAL.permit2);
    expect(written.contracts.universalRouter).toBeUndefined();
    expect(written.tokens.map((token) => token.symbol)).toEqual(["WETH", "USDC"]);

    service = await spawnService({ JUNCTION_RPC_URL: chain.rpcUrl, JUNCTION_DEPLOYMENT: deploymentPath });
    expect(service.output()).toMatch(/indexed 3 pools \(1 V2, 1 V3, 1 V4\)/);
    expect(service.output()).not.toMatch(/uniswap-v\d disabled/);
    const params = new URLSearchParams({
      chainId: "4663",
      tokenIn: CANONICAL.weth9,
      tokenOut: chain.usdc,
      amountIn: parseEther("1").toString(),
    });
    const response = await fetch(`${service.baseUrl}/api/v2/quote?${params}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const quote = JSON.parse(text);
    expect(quote.execution.status).toBe("simulated");
    // About 3,000 USDC for 1 WETH on a 1,000 WETH / 3,000,000 USDC pair, less the 0.3% pool fee and our 20 bps.
    expect(BigInt(quote.amountOut)).toBeGreaterThan(2_980n * 10n ** 6n);
    expect(BigInt(quote.amountOut)).toBeLessThan(3_000n * 10n ** 6n);
    expect(text.toLowerCase()).toContain(chain.v2Pair.toLowerCase());

    await builderSwapToFinality({
      service,
      deployment: written,
      publicClient: createPublicClient({ chain: junctionChain(chain.rpcUrl), transport: http(chain.rpcUrl) }),
      wallet: createWalletClient({
        account: anvilAccount(8),
        chain: junctionChain(chain.rpcUrl),
        transport: http(chain.rpcUrl),
      }),
      tokenOut: chain.usdc,
      code: "canonical-e2e",
    });
  }, 240_000);
});
