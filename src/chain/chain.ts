import { defineChain } from "viem";

/** Junction serves exactly one chain. `as const`: the literal type survives in object literals. */
export const CHAIN_ID = 4663 as const;

/** The viem chain definition for chain 4663, pointed at the configured RPC. */
export function junctionChain(rpcUrl: string) {
  return defineChain({
    id: CHAIN_ID,
    name: `Junction chain ${CHAIN_ID}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
