import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type EIP1193Provider,
} from "viem";

/**
 * The browser's wallet (an injected EIP-1193 provider, `window.ethereum`) as viem clients on chain 4663.
 * Reads go through the wallet's own node, as a dapp's do; nothing here holds a key.
 */
export const junctionChain = defineChain({
  id: 4663,
  name: "Junction chain 4663",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

export type Wallet = {
  address: Address;
  wallet: ReturnType<typeof createWalletClient>;
  reader: ReturnType<typeof createPublicClient>;
};

/** Asks the wallet for its account; throws a readable error without a wallet. */
export async function connectWallet(): Promise<Wallet> {
  const provider = window.ethereum;
  if (!provider) throw new Error("No Ethereum wallet found in this browser: install or enable one.");
  const transport = custom(provider);
  const wallet = createWalletClient({ chain: junctionChain, transport });
  const [address] = await wallet.requestAddresses();
  if (!address) throw new Error("The wallet shared no account.");
  const reader = createPublicClient({ chain: junctionChain, transport, cacheTime: 0 });
  const chainId = await reader.getChainId();
  if (chainId !== junctionChain.id)
    throw new Error(`The wallet is on chain ${chainId}; switch it to chain ${junctionChain.id}.`);
  return {
    address,
    wallet: createWalletClient({ account: address, chain: junctionChain, transport }),
    reader,
  };
}

/** The message of an error for display: viem's short message when there is one. */
export function errorText(error: unknown): string {
  if (error && typeof error === "object" && "shortMessage" in error) return String(error.shortMessage);
  return error instanceof Error ? error.message : String(error);
}
