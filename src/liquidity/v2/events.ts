import { parseAbiItem } from "viem";

/** A canonical V2 pair's Mint, Burn and Swap each end in a Sync: the one event that changes its reserves. */
export const V2_SYNC = parseAbiItem("event Sync(uint112 reserve0, uint112 reserve1)");
