import { createHash } from "node:crypto";
import { type Address, type Hex, type PublicClient, zeroAddress } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import { gasPriceAt } from "../chain/gas-price.ts";
import { pinBlock } from "../chain/pin-block.ts";
import { isNodeFailure } from "../chain/upstream-error.ts";
import type { Contracts } from "../config/deployment.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { JunctionError } from "../errors/junction-error.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import { decodeExecutorOutput, simulateWalletTransaction } from "../simulation/simulate-transaction.ts";
import { type BuilderQuoteRecord, quoteForKey } from "../store/repositories/builder-quotes.ts";
import {
  deletePendingPreparation,
  findPreparation,
  insertPendingPreparation,
  savePreparationOutcome,
  takeOverStalePreparation,
} from "../store/repositories/swap-preparations.ts";
import type { Db } from "../store/schema.ts";

/** Gas limit margin over `eth_estimateGas`: estimates at one block can be tight at the next. */
const GAS_MARGIN_PERCENT = 125n;
/** A preparation still `pending` after this long was abandoned (its process died): the key may take it over. */
const PENDING_TAKEOVER_MS = 60_000;

/** A prepared swap, as saved under its Idempotency-Key and returned (amounts as decimal strings). */
export type PreparedSwap = {
  idempotencyKey: string;
  quoteId: Hex;
  status: "ready";
  tx: { from: Address; to: Address; data: Hex; value: string; chainId: typeof CHAIN_ID; gas: string };
  /** What the payer must approve first (ERC-20 input): spender is the executor. Null for native ETH. */
  approval: {
    token: Address;
    spender: Address;
    amount: string;
    currentAllowance: string;
    required: boolean;
  } | null;
  balance: { token: Address; required: string; current: string; sufficient: boolean };
  simulation: { block: string; blockHash: Hex; amountOut: string; gas: string };
  minimumAmountOut: string;
  deadline: number;
  expiresAt: number;
};

export type PreparationStatus =
  | { status: "pending"; quoteId: Hex; idempotencyKey: string }
  | { status: "ready"; quoteId: Hex; idempotencyKey: string; swap: PreparedSwap }
  | { status: "failed"; quoteId: Hex; idempotencyKey: string; failure: string };

/** Why a preparation is refused before anything is saved (404, 409) or why it failed (503, saved). */
export class PreparationError extends JunctionError {
  override name = "PreparationError";
  constructor(
    code:
      | "PLAN_NOT_FOUND"
      | "PLAN_EXPIRED"
      | "PLAN_NOT_READY"
      | "IDEMPOTENCY_CONFLICT"
      | "PREPARATION_FAILED",
    message: string,
  ) {
    super(code, message);
  }
}

export type SwapPreparationDeps = {
  db: Db;
  client: PublicClient;
  contracts: Contracts;
  fixtures: ReturnType<typeof createFixtures>;
  now: () => number;
};

/**
 * Swap preparation (scope `swap`): the unsigned executor transaction of a builder quote, simulated from the
 * payer at the latest block before it is returned (with the payer's input balance and exact allowance set
 * by state override, so the route is proven whatever the wallet holds now; what it holds and must approve
 * is reported beside it). Idempotent under `idempotencyKey`: the first request saves `pending`, then
 * `ready` (with the response) or `failed`; a repeat with the same body replays the saved outcome, with a
 * different body it is a conflict. Only the key that issued the quote can prepare it (404 otherwise).
 */
export async function prepareSwap(
  deps: SwapPreparationDeps,
  principal: { keyId: string },
  input: { quoteId: string; idempotencyKey: string },
): Promise<PreparationStatus> {
  const requestHash = createHash("sha256")
    .update(JSON.stringify({ quoteId: input.quoteId }))
    .digest("hex");
  const quote = await quoteForKey(deps.db, input.quoteId, principal.keyId);
  if (!quote) throw new PreparationError("PLAN_NOT_FOUND", "no quote with this id for this key");

  const claimed = await claim(
    deps.db,
    principal.keyId,
    input.idempotencyKey,
    quote.id,
    requestHash,
    deps.now(),
  );
  if (!claimed) {
    const saved = await savedStatus(deps.db, principal.keyId, input.idempotencyKey);
    if (!saved || saved.requestHash !== requestHash)
      throw new PreparationError(
        "IDEMPOTENCY_CONFLICT",
        "this Idempotency-Key was already used for a different request",
      );
    if (saved.status.status === "pending")
      throw new PreparationError(
        "PLAN_NOT_READY",
        "the preparation under this Idempotency-Key is still running",
      );
    return saved.status;
  }

  // Refusals that change nothing: the claim is released so the key can be used once the plan is ready.
  const refuse = async (error: PreparationError) => {
    await release(deps.db, principal.keyId, input.idempotencyKey);
    throw error;
  };
  if (new Date(quote.expires_at).getTime() <= deps.now())
    await refuse(new PreparationError("PLAN_EXPIRED", "the quote has expired: request a new quote"));
  if (!quote.settlement_available)
    await refuse(
      new PreparationError(
        "PLAN_NOT_READY",
        "the quote is a local preview (its builder code is not registered on chain); register the code and quote again",
      ),
    );

  let outcome: PreparationStatus;
  try {
    const swap = await simulateForPayer(deps, quote, input.idempotencyKey);
    outcome =
      typeof swap === "string"
        ? { status: "failed", quoteId: quote.id as Hex, idempotencyKey: input.idempotencyKey, failure: swap }
        : { status: "ready", quoteId: quote.id as Hex, idempotencyKey: input.idempotencyKey, swap };
  } catch (error) {
    if (!isNodeFailure(error)) {
      await release(deps.db, principal.keyId, input.idempotencyKey);
      throw error;
    }
    outcome = {
      status: "failed",
      quoteId: quote.id as Hex,
      idempotencyKey: input.idempotencyKey,
      failure: "the chain node did not answer",
    };
  }
  await savePreparationOutcome(
    deps.db,
    { keyId: principal.keyId, idempotencyKey: input.idempotencyKey },
    {
      status: outcome.status,
      failure: outcome.status === "failed" ? outcome.failure : null,
      response: outcome.status === "ready" ? outcome.swap : null,
      at: new Date(deps.now()),
    },
  );
  return outcome;
}

/** The saved status of a preparation under this key (for `GET`), or undefined. */
export async function preparationStatus(
  db: Db,
  keyId: string,
  idempotencyKey: string,
): Promise<PreparationStatus | undefined> {
  return (await savedStatus(db, keyId, idempotencyKey))?.status;
}

async function savedStatus(db: Db, keyId: string, idempotencyKey: string) {
  const row = await findPreparation(db, { keyId, idempotencyKey });
  if (!row) return undefined;
  const base = { quoteId: row.quote_id as Hex, idempotencyKey };
  const status: PreparationStatus =
    row.status === "ready"
      ? { ...base, status: "ready", swap: row.response as PreparedSwap }
      : row.status === "failed"
        ? { ...base, status: "failed", failure: row.failure ?? "preparation failed" }
        : { ...base, status: "pending" };
  return { requestHash: row.request_hash, status };
}

/** Claims the Idempotency-Key: a new `pending` row, or an abandoned `pending` one taken over. */
async function claim(
  db: Db,
  keyId: string,
  idempotencyKey: string,
  quoteId: string,
  requestHash: string,
  now: number,
): Promise<boolean> {
  const at = new Date(now);
  if (await insertPendingPreparation(db, { keyId, idempotencyKey, quoteId, requestHash, at })) return true;
  const staleBefore = new Date(now - PENDING_TAKEOVER_MS);
  return takeOverStalePreparation(db, { keyId, idempotencyKey, requestHash, at, staleBefore });
}

async function release(db: Db, keyId: string, idempotencyKey: string) {
  await deletePendingPreparation(db, { keyId, idempotencyKey });
}

/** Runs the quote's transaction from the payer at the latest block; a string is the saved failure reason. */
async function simulateForPayer(
  deps: SwapPreparationDeps,
  quote: BuilderQuoteRecord,
  idempotencyKey: string,
): Promise<PreparedSwap | string> {
  const { client, contracts } = deps;
  const payer = quote.payer as Address;
  const tokenIn = quote.token_in as Address;
  const amountIn = BigInt(quote.amount_in);
  const tx = { to: quote.tx_to as Address, data: quote.tx_data as Hex, value: BigInt(quote.tx_value) };
  const block = await pinBlock(client);
  const [gasPrice, fixture, holdings] = await Promise.all([
    gasPriceAt(client, block),
    deps.fixtures({
      tokenIn,
      amountIn,
      spender: contracts.executor,
      blockNumber: block.number,
      caller: payer,
    }),
    walletHoldings(client, payer, tokenIn, contracts.executor, block.number),
  ]);
  if (fixture.status !== "ready")
    return `the input token's balance layout is not supported (${fixture.reason})`;
  const [validation, simulation] = await Promise.all([
    fixture.validation,
    simulateWalletTransaction(client, {
      tx,
      from: payer,
      stateOverride: fixture.stateOverride,
      blockNumber: block.number,
      gasPrice,
      decodeOutput: decodeExecutorOutput,
    }),
  ]);
  if (validation !== "exact") return "the input token's balance could not be set exactly for the simulation";
  if (simulation.status === "failed")
    return `the transaction reverts at block ${block.number}${simulation.error ? ` (${simulation.error})` : ""}`;
  if (simulation.status === "unverified")
    return `the transaction could not be simulated (${simulation.reason})`;
  const expiresAt = Math.floor(new Date(quote.expires_at).getTime() / 1000);
  const deadline = Math.floor(new Date(quote.deadline).getTime() / 1000);
  return {
    idempotencyKey,
    quoteId: quote.id as Hex,
    status: "ready",
    tx: {
      from: payer,
      to: tx.to.toLowerCase() as Address,
      data: tx.data,
      value: tx.value.toString(),
      chainId: CHAIN_ID,
      gas: ((simulation.gas * GAS_MARGIN_PERCENT) / 100n).toString(),
    },
    approval:
      tokenIn === zeroAddress
        ? null
        : {
            token: tokenIn,
            spender: contracts.executor.toLowerCase() as Address,
            amount: amountIn.toString(),
            currentAllowance: holdings.allowance.toString(),
            required: holdings.allowance < amountIn,
          },
    balance: {
      token: tokenIn,
      required: amountIn.toString(),
      current: holdings.balance.toString(),
      sufficient: holdings.balance >= amountIn,
    },
    simulation: {
      block: block.number.toString(),
      blockHash: block.hash,
      amountOut: simulation.amountOut.toString(),
      gas: simulation.gas.toString(),
    },
    minimumAmountOut: quote.minimum_amount_out,
    deadline,
    expiresAt,
  };
}

/** The payer's real input balance and allowance to the executor (no overrides), for the response. */
async function walletHoldings(
  client: PublicClient,
  payer: Address,
  token: Address,
  spender: Address,
  blockNumber: bigint,
): Promise<{ balance: bigint; allowance: bigint }> {
  if (token === zeroAddress)
    return { balance: await client.getBalance({ address: payer, blockNumber }), allowance: 0n };
  const [balance, allowance] = await Promise.all([
    client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [payer],
      blockNumber,
    }),
    client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [payer, spender],
      blockNumber,
    }),
  ]);
  return { balance, allowance };
}
