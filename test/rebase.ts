import { createWalletClient, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { junctionChain } from "../src/chain/chain.ts";
import type { TestDevnet } from "./devnet.ts";

/**
 * Rebases the devnet's rebasing-shares token (rUSD) by `permille` / 1000 of its supply, as its deployer, and
 * waits for the block: after it, balances are computed from shares and no single storage slot holds one.
 */
export async function rebaseShares(devnet: TestDevnet, permille: bigint): Promise<void> {
  const rUsd = devnet.manifest.tokens.find((t) => t.symbol === "rUSD")!.address;
  const deployer = devnet.manifest.accounts.find((a) => a.role === "deployer")!;
  const wallet = createWalletClient({
    chain: junctionChain(devnet.rpcUrl),
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(deployer.privateKey),
  });
  const abi = parseAbi(["function rebase(uint256)", "function totalSupply() view returns (uint256)"]);
  const supply = await devnet.publicClient.readContract({ address: rUsd, abi, functionName: "totalSupply" });
  const hash = await wallet.writeContract({
    address: rUsd,
    abi,
    functionName: "rebase",
    args: [(supply * permille) / 1000n],
  });
  await devnet.publicClient.waitForTransactionReceipt({ hash });
}
