import type { Hex } from "viem";

/**
 * Chain reads at a named state, shared by the quotes at that same state (docs/rules.md, comparison rule
 * 14): a token's code and the registry's fee terms at block `hash` are what they are, so the second quote of
 * a pair in a block asks the node nothing. The key names one chain state: a block's hash, or the block since
 * which the contracts read are known unchanged (block-reads.ts). Only the newest `blocks` states' answers
 * are kept, and a read that failed is forgotten at once.
 */
export function createBlockMemo(blocks = 2, perBlock = 4096) {
  const memo = new Map<Hex, Map<string, Promise<unknown>>>();
  return function atBlock<T>(block: Hex, key: string, read: () => Promise<T>): Promise<T> {
    let entries = memo.get(block);
    if (!entries) {
      entries = new Map();
      memo.set(block, entries);
      while (memo.size > blocks) memo.delete(memo.keys().next().value!);
    }
    const known = entries.get(key);
    if (known) return known as Promise<T>;
    const answer = read();
    if (entries.size < perBlock) {
      entries.set(key, answer);
      answer.catch(() => entries.delete(key));
    }
    return answer;
  };
}
