import { createRandom } from "../../src/devnet/random.ts";
import type { RpcProxy } from "../../test/rpc-proxy.ts";
import { rpc } from "./json-rpc.ts";
import { cpuMs } from "./measure-process.ts";
import { type QuoteSample, startQuoteLoop } from "./quote-loop.ts";
import type { RequestTimeline } from "./request-timeline.ts";
import type { ScaleManifest } from "./scale-manifest.ts";
import type { ScaleOptions } from "./scale-options.ts";
import { blockReceipts, createNonces, sendTransactions } from "./send-and-mine.ts";
import { swapTxs } from "./swap-txs.ts";

/** Public quotes per minute during the last phase: a steady trickle, under the 60 a minute admitted. */
const QUOTES_PER_MINUTE = 45;

export type BlockPhase = "empty" | "busy" | "busy-quoted";

/** One mined block and what the service did until the next one was mined. */
export type BlockSample = {
  phase: BlockPhase;
  number: number;
  /** Swaps sent for the block, and how many of them succeeded. */
  swaps: number;
  succeeded: number;
  /** Service CPU (user + system) from this block's `evm_mine` to the next one's. */
  cpuMs: number;
  /** The same, of the service's main thread alone (its JavaScript, without V8's background threads). */
  mainCpuMs: number;
  /** JSON-RPC calls the service made over the same interval, by method. */
  calls: string[];
  /** When anvil was asked to mine the block (performance.now ms), and how long it took. */
  minedAt: number;
  mineMs: number;
};

/**
 * Mines `blocks` blocks, one every `blockTime` seconds: first the empty ones (no swaps, no quotes), then
 * half the busy ones (K swaps each, no quotes), then the rest with quotes running. Each block's swaps are
 * put in the node's pool (automine off, sent to anvil directly, not through the service's proxy) during
 * the previous interval, so the block is mined on the tick. Between one `evm_mine` and the next, the
 * service's CPU and its node calls (at the counting proxy) are that block's.
 */
export async function runBlocks(input: {
  anvilUrl: string;
  proxy: RpcProxy;
  timeline: RequestTimeline;
  servicePid: number;
  baseUrl: string;
  manifest: ScaleManifest;
  options: ScaleOptions;
  log: (line: string) => void;
}): Promise<{ blocks: BlockSample[]; quotes: QuoteSample[] }> {
  const { anvilUrl, proxy, manifest, options } = input;
  const random = createRandom(options.seed * 7919 + 1);
  const nonces = await createNonces(anvilUrl, manifest.accounts.swappers);
  const empty = options.blocks - options.busy;
  const quiet = Math.ceil(options.busy / 2);
  const phaseOf = (i: number): BlockPhase =>
    i < empty ? "empty" : i < empty + quiet ? "busy" : "busy-quoted";
  const intervalMs = options.blockTimeSeconds * 1000;
  const blocks: (BlockSample & { cpuAt: number; mainCpuAt: number; callsAt: number })[] = [];
  let quotes: ReturnType<typeof startQuoteLoop> | undefined;
  let tick = performance.now() + intervalMs;
  for (let i = 0; i < options.blocks; i++) {
    const phase = phaseOf(i);
    const swaps = phase === "empty" ? 0 : options.swapsPerBlock;
    if (swaps > 0) await sendTransactions(anvilUrl, swapTxs(manifest, random, swaps, nonces));
    await sleepUntil(tick);
    const mark = {
      cpuAt: cpuMs(input.servicePid),
      mainCpuAt: cpuMs(input.servicePid, { mainThread: true }),
      callsAt: proxy.calls.length,
    };
    closeInterval(blocks.at(-1), mark, proxy);
    const mining = performance.now();
    await rpc(anvilUrl, "evm_mine");
    const mineMs = performance.now() - mining;
    const number = Number(await rpc<string>(anvilUrl, "eth_blockNumber"));
    blocks.push({
      phase,
      number,
      swaps,
      succeeded: 0,
      cpuMs: 0,
      mainCpuMs: 0,
      calls: [],
      minedAt: mining,
      mineMs,
      ...mark,
    });
    if (phase === "busy-quoted" && !quotes)
      quotes = startQuoteLoop({
        baseUrl: input.baseUrl,
        manifest,
        timeline: input.timeline,
        // Its own draws, so the swaps stay the same whatever the quotes' timing.
        random: createRandom(options.seed * 7919 + 2),
        everyMs: 60_000 / QUOTES_PER_MINUTE,
      });
    if (i % 10 === 9 || i === options.blocks - 1)
      input.log(`scale: mined ${i + 1}/${options.blocks} blocks (${phase})`);
    tick += intervalMs;
  }
  await sleepUntil(tick);
  closeInterval(
    blocks.at(-1),
    {
      cpuAt: cpuMs(input.servicePid),
      mainCpuAt: cpuMs(input.servicePid, { mainThread: true }),
      callsAt: proxy.calls.length,
    },
    proxy,
  );
  const quoteSamples = (await quotes?.stop()) ?? [];
  await countSucceeded(anvilUrl, blocks);
  return { blocks, quotes: quoteSamples };
}

/** Sets each busy block's `succeeded` from its receipts (every transaction in it is one of the swaps). */
async function countSucceeded(url: string, blocks: BlockSample[]): Promise<void> {
  const busy = blocks.filter((block) => block.swaps > 0);
  const receipts = await blockReceipts(
    url,
    busy.map((block) => block.number),
  );
  for (const block of busy)
    block.succeeded = receipts.filter(
      (receipt) => Number(receipt.blockNumber) === block.number && receipt.status === "0x1",
    ).length;
}

/** Ends the previous block's interval at `mark`: its CPU and the node calls made since it was mined. */
function closeInterval(
  block: (BlockSample & { cpuAt: number; mainCpuAt: number; callsAt: number }) | undefined,
  mark: { cpuAt: number; mainCpuAt: number; callsAt: number },
  proxy: RpcProxy,
): void {
  if (!block) return;
  block.cpuMs = mark.cpuAt - block.cpuAt;
  block.mainCpuMs = mark.mainCpuAt - block.mainCpuAt;
  block.calls = proxy.calls.slice(block.callsAt, mark.callsAt);
}

async function sleepUntil(at: number): Promise<void> {
  const wait = at - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
