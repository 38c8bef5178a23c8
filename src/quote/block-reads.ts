import type { Address, Hex, PublicClient } from "viem";
import type { FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import { createBlockMemo } from "./block-memo.ts";
import { createFeeAnswers, type FeeKeys } from "./fee-answers.ts";
import { readFeeTerms } from "./fee-terms.ts";
import { type FeeTerms, QuoteError, type QuoteRequest } from "./quote-types.ts";

/**
 * The quote's reads besides pools, at the quote block: the tokens' code and the fee terms, each shared by
 * the quotes at the same block (`createBlockMemo`), so a warm quote of a pair asks the node nothing here.
 * With followed state watching the registry, "the same block" widens to every block since the registry
 * last logged (`unchangedSince`): every change of its state logs, so its state at those blocks is one
 * state, and a warm pair's first quote in a new block asks nothing here either. A token's code, once
 * there, stays (a contract can no longer remove its own code after the block it was created in).
 */
export function createBlockReads(
  client: PublicClient,
  registry: Address,
  followed?: Pick<FollowedSource, "unchangedSince">,
) {
  const atBlock = createBlockMemo();
  const sameState = (block: { hash: Hex }) => followed?.unchangedSince(block) ?? block.hash;
  const answered = createFeeAnswers();
  return {
    checkTokens: (request: QuoteRequest, block: { number: bigint; hash: Hex }) =>
      atBlock(sameState(block), `code:${request.tokenIn}:${request.tokenOut}`, () =>
        checkTokens(client, [request.tokenIn, request.tokenOut], block.number),
      ),
    feeTerms: (request: QuoteRequest, block: { number: bigint; hash: Hex }): Promise<FeeTerms> => {
      const state = sameState(block);
      const keys = feeKeys(request);
      return atBlock(state, keys.key, () =>
        readFeeTerms(client, registry, request, block.number).then((terms) => {
          answered.record(state, keys, terms);
          return terms;
        }),
      );
    },
    /**
     * The fee terms the registry answered for this read at the block's state, or else those it answered
     * another pair of the same builder terms there; when it answered none there yet (a new state, or the
     * process's first quote), the same from the newest earlier state it answered at. A quote may build and
     * simulate on them while `feeTerms` reads its own in the simulations' round trip, and must start again
     * on those when they differ (a pair with its own fee, a fee changed since). A guess only saves a round
     * trip; it never decides a fee.
     */
    guessFeeTerms: (request: QuoteRequest, block: { hash: Hex }): FeeTerms | undefined =>
      answered.guess(sameState(block), feeKeys(request)),
  };
}

function feeKeys(request: QuoteRequest): FeeKeys {
  const builder = `${request.builder?.id}:${request.builder?.feeBps}`;
  return { key: `fees:${request.tokenIn}:${request.tokenOut}:${builder}`, builder };
}

/** Whether two fee terms build the same calldata and the same quote. */
export function sameFeeTerms(a: FeeTerms, b: FeeTerms): boolean {
  return (
    a.serviceFeeBps === b.serviceFeeBps &&
    a.builderBps === b.builderBps &&
    a.builderRecipient.toLowerCase() === b.builderRecipient.toLowerCase() &&
    a.policyVersion === b.policyVersion &&
    a.pairFee === b.pairFee &&
    JSON.stringify(a.builder) === JSON.stringify(b.builder)
  );
}

/** Tokens must have code (native ETH aside): a typo'd address is a 422, not an empty search. */
async function checkTokens(client: PublicClient, tokens: Address[], blockNumber: bigint): Promise<void> {
  await Promise.all(
    tokens.map(async (token) => {
      if (BigInt(token) === 0n) return;
      const code = await client.getCode({ address: token, blockNumber });
      if (!code || code === "0x") throw new QuoteError("UNKNOWN_TOKEN", `no token contract at ${token}`);
    }),
  );
}
