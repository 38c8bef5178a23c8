/**
 * Does anvil answer a read pinned to block B with the state of the block it is mining? Run alone:
 * `npx tsx bench/scale/anvil-mining-reads.ts [rounds]`. Each round queues 3,000 ETH transfers to one
 * address, starts `evm_mine`, and while it runs asks `eth_getBalance(address, B)` back to back; any answer
 * other than the balance at B (asked before and after) is the new block's state served as B's. No service
 * is involved: this is the node the scale benchmark runs on (docs/benchmarks.md, "Scale").
 */
import { startScaleAnvil } from "./scale-anvil.ts";

const TRANSFERS = 3_000;
const TARGET = "0x00000000000000000000000000000000000000ee";

async function main(rounds: number): Promise<void> {
  const anvil = await startScaleAnvil({});
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: unknown };
    if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result as T;
  };
  try {
    await rpc("evm_setAutomine", [false]);
    const [from] = await rpc<string[]>("eth_accounts");
    let other = 0;
    let reads = 0;
    for (let round = 0; round < rounds; round++) {
      const block = `0x${BigInt(await rpc<string>("eth_blockNumber")).toString(16)}`;
      const before = await rpc<string>("eth_getBalance", [TARGET, block]);
      const nonce = BigInt(await rpc<string>("eth_getTransactionCount", [from, "pending"]));
      const transfers = Array.from({ length: TRANSFERS }, (_, i) => ({
        jsonrpc: "2.0",
        id: i,
        method: "eth_sendTransaction",
        params: [
          { from, to: TARGET, value: "0x1", gas: "0x5208", nonce: `0x${(nonce + BigInt(i)).toString(16)}` },
        ],
      }));
      await fetch(anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(transfers),
      });
      let mined = false;
      const mining = rpc("evm_mine").then(() => {
        mined = true;
      });
      const seen: string[] = [];
      while (!mined) seen.push(await rpc<string>("eth_getBalance", [TARGET, block]));
      await mining;
      const after = await rpc<string>("eth_getBalance", [TARGET, block]);
      const differed = seen.filter((balance) => balance !== before);
      reads += seen.length;
      other += differed.length;
      console.log(
        `block ${BigInt(block)}: ${seen.length} reads while the next was mined, ${differed.length} answered other than its balance ${BigInt(before)} (${differed.map((b) => BigInt(b)).join(", ") || "-"}); asked after: ${BigInt(after)}`,
      );
    }
    console.log(`${other} of ${reads} reads pinned to the previous block answered with other state`);
  } finally {
    await anvil.stop();
  }
}

await main(Number(process.argv[2] ?? 10));
