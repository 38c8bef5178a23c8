import type { Address, Hex, PublicClient } from "viem";
import { createBlockMemo } from "./block-memo.ts";
import { readFeeTerms } from "./fee-terms.ts";
import { type FeeTerms, QuoteError, type QuoteRequest } from "./quote-types.ts";

/**
 * The quote's reads besides pools, at the quote block: the tokens' code and the fee terms, each shared by
 * the quotes at the same block (`createBlockMemo`), so a warm quote of a pair asks the node nothing here.
 */
export function createBlockReads(client: PublicClient, registry: Address) {
  const atBlock = createBlockMemo();
  return {
    checkTokens: (request: QuoteRequest, block: { number: bigint; hash: Hex }) =>
      atBlock(block.hash, `code:${request.tokenIn}:${request.tokenOut}`, () =>
        checkTokens(client, [request.tokenIn, request.tokenOut], block.number),
      ),
    feeTerms: (request: QuoteRequest, block: { number: bigint; hash: Hex }): Promise<FeeTerms> => {
      const terms = [request.tokenIn, request.tokenOut, request.builder?.id, request.builder?.feeBps];
      return atBlock(block.hash, `fees:${terms.join(":")}`, () =>
        readFeeTerms(client, registry, request, block.number),
      );
    },
  };
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
