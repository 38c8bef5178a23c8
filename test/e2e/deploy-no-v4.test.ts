import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createPublicClient, createWalletClient, http, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junctionChain } from "../../src/chain/chain.ts";
import { DeploymentSchema } from "../../src/config/deployment.ts";
import { UNISWAP_PRESETS } from "../../src/config/uniswap-presets.ts";
import { builderRegistryArtifact } from "../../src/contracts/artifacts/BuilderRegistry.ts";
import { anvilAccount, type CanonicalChain, startCanonicalUniswapChain } from "../canonical-uniswap.ts";
import { builderSwapToFinality } from "./builder-swap-flow.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * An operator's chain with the official Uniswap V2 and V3 contracts and no V4 (test/canonical-uniswap.ts
 * with `v4: false`; the V3 pool holds liquidity at 3,100 USDC per WETH, the V2 pair at 3,000). The example
 * plans of docs/deploy-plans are deployed as written (plus this chain's test token), with the deployer key
 * exported as the docs say, and the service is started by the exact line the deploy printed: V4 is disabled
 * at start and in `/api/v2/config`, quotes go over the V2 and V3 pools, and a builder swap settles through
 * the executor built without a PoolManager.
 */
const CANONICAL = UNISWAP_PRESETS["ethereum-canonical"];
const DEPLOYER_KEY = `0x${Buffer.from(anvilAccount(9).getHdKey().privateKey!).toString("hex")}`;
const run = promisify(execFile);
let chain: CanonicalChain;
let dir: string;
let service: SpawnedService | undefined;

beforeAll(async () => {
  chain = await startCanonicalUniswapChain({ v4: false, v3UsdcPerWeth: 3_100n });
  dir = mkdtempSync(join(tmpdir(), "junction-no-v4-"));
}, 120_000);
afterAll(async () => {
  service?.kill();
  await chain?.anvil.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `junction deploy` of an example plan, with this chain's USDC added to its tokens; never throws. */
async function deploy(
  example: string,
  extra: string[] = [],
  plan?: (json: { uniswap: Record<string, string> }) => unknown,
) {
  const json = JSON.parse(readFileSync(`docs/deploy-plans/${example}.json`, "utf8"));
  const planPath = join(dir, `${example}.plan.json`);
  writeFileSync(
    planPath,
    JSON.stringify(plan ? plan(json) : { ...json, tokens: [...json.tokens, chain.usdc] }),
  );
  const out = join(dir, `${example}.deployment.json`);
  const env = { ...process.env, JUNCTION_RPC_URL: chain.rpcUrl, JUNCTION_DEPLOYER_KEY: DEPLOYER_KEY };
  try {
    const args = ["bin/junction.js", "deploy", "--plan", planPath, "--out", out, ...extra];
    return { code: 0, out, ...(await run(process.execPath, args, { env })) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, out, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("junction deploy onto a chain without Uniswap V4", () => {
  it("refuses V4 addresses without code and names the way out; a preset leaves V4 out, dry run included", async () => {
    const claimed = await deploy("no-v4", ["--dry-run"], (plan) => ({
      ...plan,
      uniswap: {
        ...plan.uniswap,
        v4PoolManager: CANONICAL.v4PoolManager,
        v4PositionManager: CANONICAL.v4PositionManager,
        v4StateView: CANONICAL.v4StateView,
      },
    }));
    expect(claimed.code).toBe(1);
    expect(claimed.stderr).toMatch(/no contract code for v4PoolManager .*docs\/deploy-plans\/no-v4\.json/);

    const dry = await deploy("zero-fee", ["--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(
      /preset ethereum-canonical: no uniswap-v4 on this chain .*uniswap-v4 disabled/,
    );
    expect(JSON.parse(dry.stdout).poolSources).toEqual([
      { id: "uniswap-v2", enabled: true },
      { id: "uniswap-v3", enabled: true },
      { id: "uniswap-v4", enabled: false, reason: "no v4PoolManager in the deployment" },
    ]);

    const zeroFee = await deploy("zero-fee");
    expect(zeroFee.code, zeroFee.stderr).toBe(0);
    const written = DeploymentSchema.parse(JSON.parse(readFileSync(zeroFee.out, "utf8")));
    expect(written.contracts.v4PoolManager).toBeUndefined();
    expect(written.contracts.v3Factory).toBe(CANONICAL.v3Factory);
    const client = createPublicClient({ chain: junctionChain(chain.rpcUrl), transport: http(chain.rpcUrl) });
    for (const functionName of ["defaultRouteFeeBps", "defaultMaxBuilderFeeBps"] as const)
      expect(
        await client.readContract({
          address: written.contracts.builderRegistry,
          abi: builderRegistryArtifact.abi,
          functionName,
        }),
      ).toBe(0);
  }, 240_000);

  it("deploys the no-V4 example, and the service started by the printed line quotes over V2 and V3", async () => {
    const deployed = await deploy("no-v4");
    expect(deployed.code, deployed.stderr).toBe(0);
    const next = /^next: (.+)$/m.exec(deployed.stdout)?.[1];
    expect(next, deployed.stdout).toMatch(/ npx junction start$/);
    expect(next).toContain("NODE_OPTIONS=--max-semi-space-size=64");

    // The deployer key stays exported in the shell that starts the service and runs the operator commands.
    service = await spawnService(
      {
        JUNCTION_RPC_URL: chain.rpcUrl,
        JUNCTION_DEPLOYMENT: deployed.out,
        JUNCTION_DEPLOYER_KEY: DEPLOYER_KEY,
      },
      { command: next! },
    );
    expect(service.output()).toMatch(/indexed 2 pools \(1 V2, 1 V3\)/);
    expect(service.output()).toMatch(/uniswap-v4 disabled: no v4PoolManager in the deployment/);
    expect(service.output()).toMatch(/JUNCTION_DEPLOYER_KEY is set; only junction deploy reads it/);

    const config = (await (await fetch(`${service.baseUrl}/api/v2/config`)).json()) as {
      poolSources: unknown;
      contracts: Record<string, string>;
    };
    expect(config.poolSources).toEqual([
      { id: "uniswap-v2", enabled: true },
      { id: "uniswap-v3", enabled: true },
      { id: "uniswap-v4", enabled: false, reason: "no v4PoolManager in the deployment" },
    ]);
    expect(config.contracts.v4PoolManager).toBeUndefined();
    expect(config.contracts.v3Factory).toBe(CANONICAL.v3Factory);

    const quote = async (tokenIn: string, tokenOut: string, amountIn: bigint) => {
      const params = new URLSearchParams({ chainId: "4663", tokenIn, tokenOut, amountIn: String(amountIn) });
      const response = await fetch(`${service!.baseUrl}/api/v2/quote?${params}`);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      const body = JSON.parse(text);
      expect(body.execution.status).toBe("simulated");
      return { body, text: text.toLowerCase() };
    };
    // Selling WETH: the V3 pool pays more (3,100 against 3,000), less its 0.3% pool fee and our 20 bps.
    const sell = await quote(CANONICAL.weth9, chain.usdc, parseEther("1"));
    expect(sell.text).toContain(chain.v3Pool.toLowerCase());
    expect(BigInt(sell.body.amountOut)).toBeGreaterThan(parseUnits("3050", 6));
    // Buying WETH: the V2 pair asks less.
    const buy = await quote(chain.usdc, CANONICAL.weth9, parseUnits("3000", 6));
    expect(buy.text).toContain(chain.v2Pair.toLowerCase());

    await builderSwapToFinality({
      service,
      deployment: DeploymentSchema.parse(JSON.parse(readFileSync(deployed.out, "utf8"))),
      publicClient: createPublicClient({ chain: junctionChain(chain.rpcUrl), transport: http(chain.rpcUrl) }),
      wallet: createWalletClient({
        account: anvilAccount(8),
        chain: junctionChain(chain.rpcUrl),
        transport: http(chain.rpcUrl),
      }),
      tokenOut: chain.usdc,
      code: "no-v4-e2e",
    });
  }, 300_000);
});
