import { type Address, encodeFunctionData, type Hex, hexToBigInt, type PublicClient, toHex } from "viem";
import { erc20Abi } from "../contracts/abis/ERC20.ts";

/** What a token's storage looks like to the simulator, for one (holder, spender). */
export type TokenSlots =
  | { status: "supported"; balanceSlot: Hex; allowanceSlot: Hex }
  | { status: "unsupported"; reason: "balance-slot-not-found" | "allowance-slot-not-found" };

/** A value no real balance holds by accident; probing looks for it coming back out of `balanceOf`. */
const MARKER = 0x4a554e4354494f4e2d534c4f54n; // "JUNCTION-SLOT"

/**
 * Finds the storage slot that holds one ERC-20 value for the holder: the access list of the view call names
 * every slot it reads (whatever the layout: a plain mapping, Solady's hashed seed, an ERC-7201 namespace,
 * a proxy's storage), and each candidate is probed by overriding it with a marker and checking that the
 * view returns exactly the marker. A value computed from several slots (rebasing shares) never matches:
 * that layout is unsupported, and the candidate using it stays unverified.
 */
async function findSlot(
  client: Pick<PublicClient, "createAccessList" | "call">,
  token: Address,
  data: Hex,
  blockNumber: bigint,
): Promise<Hex | undefined> {
  const { accessList } = await client.createAccessList({ to: token, data, blockNumber });
  const candidates = accessList
    .filter((entry) => entry.address.toLowerCase() === token.toLowerCase())
    .flatMap((entry) => entry.storageKeys);
  const marker = toHex(MARKER, { size: 32 });
  const probes = await Promise.all(
    candidates.map(async (slot) => {
      const result = await client.call({
        to: token,
        data,
        blockNumber,
        stateOverride: [{ address: token, stateDiff: [{ slot, value: marker }] }],
      });
      return result.data && result.data.length === 66 && hexToBigInt(result.data) === MARKER
        ? slot
        : undefined;
    }),
  );
  return probes.find((slot) => slot !== undefined);
}

/** The slot that holds `holder`'s balance of a token, or undefined when no single slot does. */
export function detectBalanceSlot(
  client: Pick<PublicClient, "createAccessList" | "call">,
  token: Address,
  holder: Address,
  blockNumber: bigint,
): Promise<Hex | undefined> {
  return findSlot(
    client,
    token,
    encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [holder] }),
    blockNumber,
  );
}

/**
 * Detects the balance slot of `holder` and the allowance slot of (`holder`, `spender`) for a token, both at
 * once: two round trips (the access lists, then the probes), not four.
 */
export async function detectTokenSlots(
  client: Pick<PublicClient, "createAccessList" | "call">,
  token: Address,
  holder: Address,
  spender: Address,
  blockNumber: bigint,
): Promise<TokenSlots> {
  const [balanceSlot, allowanceSlot] = await Promise.all([
    detectBalanceSlot(client, token, holder, blockNumber),
    findSlot(
      client,
      token,
      encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [holder, spender] }),
      blockNumber,
    ),
  ]);
  if (!balanceSlot) return { status: "unsupported", reason: "balance-slot-not-found" };
  if (!allowanceSlot) return { status: "unsupported", reason: "allowance-slot-not-found" };
  return { status: "supported", balanceSlot, allowanceSlot };
}
