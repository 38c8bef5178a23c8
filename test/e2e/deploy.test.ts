import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { getAddress, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeploymentSchema } from "../../src/config/deployment.ts";
import { builderRegistryArtifact } from "../../src/contracts/artifacts/BuilderRegistry.ts";
import { startTestDevnet, type TestDevnet } from "../devnet.ts";
import { builderSwapToFinality } from "./builder-swap-flow.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * `junction deploy` as an operator runs it, against a node holding the official Uniswap contracts and
 * pools (the test devnet; its own Junction contracts are ignored): a dry run sends nothing; a run that fails
 * midway resumes without deploying twice; a finished run reruns as a no-op; then `junction start` on the
 * written deployment file quotes, and a builder workspace activated on the new registry quotes, prepares
 * and sends a swap through the new executor and verifies its receipt to finality.
 */
const DEPLOYER = 9;
const BUILDER = 8;
let devnet: TestDevnet;
let dir: string;
const run = promisify(execFile);

async function junction(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/junction.js", ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;

function plan(extraPairs: { tokenA: string; tokenB: string; bps: number }[] = []) {
  const c = devnet.manifest.contracts;
  return {
    chainId: 4663,
    uniswap: {
      weth9: c.weth9,
      v2Factory: c.v2Factory,
      v2PairInitCodeHash: c.v2PairInitCodeHash,
      v3Factory: c.v3Factory,
      v3PoolInitCodeHash: c.v3PoolInitCodeHash,
      v4PoolManager: c.v4PoolManager,
      v4PositionManager: c.v4PositionManager,
      v4StateView: c.v4StateView,
    },
    poolsFromBlock: "0",
    treasury: devnet.manifest.accounts[10]!.address,
    feeSchedule: {
      defaultRouteFeeBps: 20,
      defaultMaxBuilderFeeBps: 40,
      pairs: [{ tokenA: token("USDC"), tokenB: token("USDT"), bps: 4 }, ...extraPairs],
    },
    tokens: [c.weth9, token("USDC"), token("USDT"), token("DAI")],
  };
}

beforeAll(async () => {
  devnet = await startTestDevnet({ blockTime: 1 });
  dir = mkdtempSync(join(tmpdir(), "junction-deploy-"));
}, 120_000);
afterAll(async () => {
  await devnet?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("junction deploy", () => {
  const env = () => ({
    JUNCTION_RPC_URL: devnet.rpcUrl,
    JUNCTION_DEPLOYER_KEY: devnet.manifest.accounts[DEPLOYER]!.privateKey,
  });
  const nonce = () =>
    devnet.publicClient.getTransactionCount({ address: devnet.manifest.accounts[DEPLOYER]!.address });
  let deploymentPath: string;

  it("dry-runs, resumes after a failure without deploying twice, and reruns as a no-op", async () => {
    const planPath = join(dir, "plan.json");
    deploymentPath = join(dir, "deployment.json");
    const args = ["deploy", "--plan", planPath, "--out", deploymentPath];
    // A pair with identical tokens makes the registry revert midway, after the contracts exist.
    writeFileSync(planPath, JSON.stringify(plan([{ tokenA: token("DAI"), tokenB: token("DAI"), bps: 1 }])));

    const start = await nonce();
    const dry = await junction([...args, "--dry-run", "--json"], env());
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dryRun: true,
      steps: [
        "registry",
        "executor",
        "registry-executor",
        expect.any(String),
        expect.any(String),
        "commission",
      ],
    });
    expect(await nonce()).toBe(start);

    const failed = await junction(args, env());
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /junction: service fee 1 bps for .*: not sent .*run junction deploy again to resume/,
    );
    const progress = JSON.parse(readFileSync(`${deploymentPath}.progress.json`, "utf8"));
    expect(Object.keys(progress.steps)).toEqual([
      "registry",
      "executor",
      "registry-executor",
      expect.any(String),
    ]);
    const sentBeforeFailure = (await nonce()) - start;
    expect(sentBeforeFailure).toBe(4);

    writeFileSync(planPath, JSON.stringify(plan()));
    const resumed = await junction([...args, "--json"], env());
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/deploy Executor: done earlier/);
    // Only the commissioning was left: nothing was deployed twice.
    expect((await nonce()) - start).toBe(sentBeforeFailure + 1);
    const { deployment } = JSON.parse(resumed.stdout);
    expect(deployment.contracts.executor).toBe(progress.steps.executor.address);
    const written = DeploymentSchema.parse(JSON.parse(readFileSync(deploymentPath, "utf8")));
    expect(written).toMatchObject({
      deploymentBlock: progress.steps.registry.block,
      poolsFromBlock: "0",
      tokens: [
        { symbol: "WETH", decimals: 18 },
        { symbol: "USDC", decimals: 6 },
        { symbol: "USDT", decimals: 6 },
        { symbol: "DAI", decimals: 18 },
      ],
    });
    const read = (functionName: "commissioned" | "defaultRouteFeeBps" | "treasury" | "executor") =>
      devnet.publicClient.readContract({
        address: written.contracts.builderRegistry,
        abi: builderRegistryArtifact.abi,
        functionName,
      });
    expect(await read("commissioned")).toBe(true);
    expect(await read("defaultRouteFeeBps")).toBe(20);
    // The registry writes its policy through to the executor it names: the one just deployed.
    expect(await read("executor")).toBe(getAddress(written.contracts.executor));

    const again = await junction(args, env());
    expect(again.code, again.stderr).toBe(0);
    expect((await nonce()) - start).toBe(sentBeforeFailure + 1);
  }, 300_000);

  it("refuses without a key, and a key in a flag", async () => {
    const refused = await junction(
      ["deploy", "--plan", join(dir, "plan.json"), "--out", join(dir, "x.json")],
      {
        JUNCTION_RPC_URL: devnet.rpcUrl,
        JUNCTION_DEPLOYER_KEY: "",
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/set JUNCTION_DEPLOYER_KEY .* or pass --keystore/);
    const flag = await junction(["deploy", "--plan", "p", "--out", "o", "--key", "0x01"], env());
    expect(flag.code).toBe(2);
  });

  describe("the service on the written deployment", () => {
    let service: SpawnedService;
    beforeAll(async () => {
      service = await spawnService({ JUNCTION_RPC_URL: devnet.rpcUrl, JUNCTION_DEPLOYMENT: deploymentPath });
    }, 120_000);
    afterAll(() => service?.kill());
    it("quotes, and settles a builder swap through the new executor to finality", async () => {
      const deployment = DeploymentSchema.parse(JSON.parse(readFileSync(deploymentPath, "utf8")));
      const weth = deployment.contracts.weth9;
      const quote = await fetch(
        `${service.baseUrl}/api/v2/quote?chainId=4663&tokenIn=${weth}&tokenOut=${token("USDC")}&amountIn=${parseEther("1")}`,
      );
      expect(quote.status).toBe(200);
      expect(((await quote.json()) as { fee: { bps: number } }).fee.bps).toBe(20);

      await builderSwapToFinality({
        service,
        deployment,
        publicClient: devnet.publicClient,
        wallet: devnet.wallet(BUILDER),
        tokenOut: token("USDC"),
        code: "deployed-e2e",
      });
    }, 180_000);
  });
});
