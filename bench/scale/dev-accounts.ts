import { type Address, type Hex, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { ACCOUNT_COUNT, MNEMONIC } from "../../src/devnet/devnet.ts";

const SWAPPERS = 8;

/**
 * The roles of the funded dev accounts on the scale chain: 0 builds (deploys, holds the seeding tokens),
 * 1-8 swap during the measurement (each holds every token and has approved the routers), 9 runs
 * `junction deploy`.
 */
export function devAccounts(): {
  builder: Address;
  swappers: Address[];
  junctionDeployer: Address;
  junctionKey: Hex;
} {
  const accounts = Array.from({ length: ACCOUNT_COUNT }, (_, addressIndex) =>
    mnemonicToAccount(MNEMONIC, { addressIndex }),
  );
  const deployer = accounts[SWAPPERS + 1]!;
  return {
    builder: accounts[0]!.address,
    swappers: accounts.slice(1, SWAPPERS + 1).map((account) => account.address),
    junctionDeployer: deployer.address,
    junctionKey: toHex(deployer.getHdKey().privateKey!),
  };
}
