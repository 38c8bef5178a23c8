import {
  type Address,
  encodeFunctionData,
  type Hex,
  hexToBigInt,
  type PublicClient,
  type StateOverride,
  toHex,
  zeroAddress,
} from "viem";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { detectTokenSlots, type TokenSlots } from "./storage-slot.ts";
import { SYNTHETIC_CALLER } from "./synthetic-caller.ts";

/** ETH the synthetic caller holds for gas on top of any native input (overridden, never real). */
const GAS_ALLOWANCE_WEI = 10n ** 22n;
/**
 * What the synthetic caller holds of an ERC-20 input beyond `amountIn`. A pull that empties the balance slot
 * earns a 4,800-gas refund a wallet keeping a remainder never gets, so without it the measured gas would be
 * below what most wallets' transactions use; with it, the figure is the larger of the two.
 */
const BALANCE_REMAINDER = 1n;

export type Fixture =
  | {
      status: "ready";
      caller: Address;
      stateOverride: StateOverride;
      /** The read-back of balance and allowance at the block, already running: run the simulation beside it. */
      validation: Promise<"exact" | "mismatch">;
    }
  | { status: "unsupported"; reason: "balance-slot-not-found" | "allowance-slot-not-found" };

export type FixtureRequest = {
  tokenIn: Address;
  amountIn: bigint;
  spender: Address;
  blockNumber: bigint;
  /** Who holds the input: the synthetic caller (quotes), or a real payer (swap preparation). */
  caller?: Address;
};

/**
 * Builds the state a candidate is simulated on: the synthetic caller holds `amountIn` of the input token
 * (and one unit more, BALANCE_REMAINDER) and has approved exactly `amountIn` to the spender, by overriding
 * the token's own storage (its code is never replaced). Slots are detected once per token and remembered; every fixture is validated at its
 * block (docs/rules.md, comparison rule 14): the overridden `balanceOf` and `allowance` must read back
 * exactly, or the candidate is unsupported rather than falsely verified. The read-back runs concurrently with
 * the candidate's simulation (same block, same overrides), so it costs no extra round trip.
 */
export function createFixtures(client: Pick<PublicClient, "createAccessList" | "call">) {
  const slots = new Map<string, Promise<TokenSlots>>();
  /** The synthetic caller's layout of each token, whichever spender it was detected with. */
  const callerSlots = new Map<string, Promise<TokenSlots>>();

  const slotsOf = (token: Address, holder: Address, spender: Address, blockNumber: bigint) => {
    const key = `${token.toLowerCase()}:${holder.toLowerCase()}:${spender.toLowerCase()}`;
    let found = slots.get(key);
    if (!found) {
      found = detectTokenSlots(client, token, holder, spender, blockNumber);
      // A failed detection (RPC trouble) is not remembered: the next request tries again.
      found.catch(() => slots.delete(key));
      slots.set(key, found);
      if (holder === SYNTHETIC_CALLER && !callerSlots.has(token.toLowerCase())) {
        callerSlots.set(token.toLowerCase(), found);
        found.catch(() => callerSlots.delete(token.toLowerCase()));
      }
    }
    return found;
  };

  /**
   * The synthetic caller's balance slot of `token` when its layout was already learned (or is being
   * learned), else undefined: what the transfer-fee meter funds its probe through without detecting it
   * again (transfer-fee.ts). Undefined too when the token has no single balance slot.
   */
  const knownBalanceSlot = (token: Address): Promise<Hex | undefined> | undefined =>
    callerSlots.get(token.toLowerCase())?.then(
      (layout) => (layout.status === "supported" ? layout.balanceSlot : undefined),
      () => undefined,
    );

  /**
   * Learns a token's layout for the synthetic caller and `spender` ahead of any quote (the service does so
   * for every indexed token in the background, so no quote waits for it). Resolves to what it found.
   */
  const learn = async (token: Address, spender: Address, blockNumber: bigint) =>
    (await slotsOf(token, SYNTHETIC_CALLER, spender, blockNumber)).status;

  const fixtureFor = async (request: FixtureRequest): Promise<Fixture> => {
    const { tokenIn, amountIn, spender, blockNumber } = request;
    const caller = request.caller ?? SYNTHETIC_CALLER;
    if (tokenIn === zeroAddress) {
      return {
        status: "ready",
        caller,
        stateOverride: [{ address: caller, balance: amountIn + GAS_ALLOWANCE_WEI }],
        validation: Promise.resolve("exact"),
      };
    }
    const layout = await slotsOf(tokenIn, caller, spender, blockNumber);
    if (layout.status === "unsupported") return layout;
    const balance = amountIn + BALANCE_REMAINDER;
    const stateOverride: StateOverride = [
      { address: caller, balance: GAS_ALLOWANCE_WEI },
      {
        address: tokenIn,
        stateDiff: [
          { slot: layout.balanceSlot, value: toHex(balance, { size: 32 }) },
          { slot: layout.allowanceSlot, value: toHex(amountIn, { size: 32 }) },
        ],
      },
    ];
    const read = async (data: Hex) => {
      const result = await client.call({ to: tokenIn, data, blockNumber, stateOverride });
      return result.data ? hexToBigInt(result.data) : undefined;
    };
    const validation = Promise.all([
      read(encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [caller] })),
      read(encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [caller, spender] })),
    ]).then(([held, allowance]): "exact" | "mismatch" =>
      held === balance && allowance === amountIn ? "exact" : "mismatch",
    );
    // Observed by the caller; never an unhandled rejection if it fails first.
    validation.catch(() => undefined);
    return { status: "ready", caller, stateOverride, validation };
  };
  return Object.assign(fixtureFor, { learn, knownBalanceSlot });
}
