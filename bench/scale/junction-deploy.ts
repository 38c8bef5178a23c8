import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Address, Hex } from "viem";
import { CHAIN_ID } from "../../src/chain/chain.ts";
import type { UniswapDeployment } from "../../src/devnet/deploy-uniswap.ts";
import { JUNCTION_BIN, operatorEnv } from "./operator-env.ts";

/** The standard schedule of the docs' example plans (docs/deploy-plans/). */
const FEE_SCHEDULE = { defaultRouteFeeBps: 20, defaultMaxBuilderFeeBps: 40, pairs: [] };
/** Service fees go to an address nobody uses on this chain. */
const TREASURY = "0x1111111111111111111111111111111111111111";

/**
 * Deploys Junction's contracts the operator's way: a deploy plan naming the chain's Uniswap contracts and
 * where pool discovery starts, then `junction deploy --plan --out` with a dev account's key in
 * `JUNCTION_DEPLOYER_KEY`. The node must mine on arrival (automine on) while it runs. Returns the path of
 * the deployment file the service reads.
 */
export async function deployJunction(input: {
  rpcUrl: string;
  dir: string;
  uniswap: UniswapDeployment;
  /** The block before the first Uniswap contract. */
  poolsFromBlock: number;
  starterTokens: Address[];
  deployerKey: Hex;
}): Promise<string> {
  const planPath = join(input.dir, "plan.json");
  const out = join(input.dir, "deployment.json");
  const plan = {
    chainId: CHAIN_ID,
    uniswap: input.uniswap,
    poolsFromBlock: String(input.poolsFromBlock),
    treasury: TREASURY,
    feeSchedule: FEE_SCHEDULE,
    tokens: input.starterTokens,
  };
  writeFileSync(planPath, `${JSON.stringify(plan, null, 2)}\n`);
  await promisify(execFile)(process.execPath, [JUNCTION_BIN, "deploy", "--plan", planPath, "--out", out], {
    env: { ...operatorEnv(), JUNCTION_RPC_URL: input.rpcUrl, JUNCTION_DEPLOYER_KEY: input.deployerKey },
  });
  return out;
}
