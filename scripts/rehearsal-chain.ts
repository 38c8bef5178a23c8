import { toHex } from "viem";
import { anvilAccount, startCanonicalUniswapChain } from "../test/canonical-uniswap.ts";

/**
 * A local chain to rehearse `junction deploy` on (docs/deploy-on-a-real-chain.md): anvil with chain id 4663,
 * the official Uniswap V2 and V3 contracts (and V4 unless `--no-v4`) at their Ethereum-canonical addresses,
 * a test USDC, a V2 WETH/USDC pair and a V3 pool with liquidity. Prints what the walkthrough needs and runs
 * until Ctrl-C. `npx tsx scripts/rehearsal-chain.ts [--no-v4]`.
 */
const withV4 = !process.argv.includes("--no-v4");
const chain = await startCanonicalUniswapChain({ v4: withV4, v3UsdcPerWeth: 3_100n });
const deployer = anvilAccount(9);
process.stdout.write(
  [
    `rehearsal chain ready (chain id 4663, Uniswap V2, V3${withV4 ? " and V4" : "; no V4"})`,
    `  rpc           ${chain.rpcUrl}`,
    `  USDC          ${chain.usdc}`,
    `  V2 pair       ${chain.v2Pair}`,
    `  V3 pool       ${chain.v3Pool}`,
    `  deployer      ${deployer.address}`,
    `  deployer key  ${toHex(deployer.getHdKey().privateKey!)}  (anvil's public test key: never on a real chain)`,
    "Ctrl-C stops it.",
    "",
  ].join("\n"),
);
const stop = async () => {
  await chain.anvil.stop();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
