import pino from "pino";
import { describe, expect, it } from "vitest";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import { reportIndex } from "./start-reports.ts";

const pool = (kind: "v2" | "v3") => ({ kind }) as IndexedPool;
const logger = pino({ level: "silent" });
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;
const hash = `0x${"11".repeat(32)}` as const;
const v2v3 = {
  v2Factory: address(1),
  v2PairInitCodeHash: hash,
  v3Factory: address(2),
  v3PoolInitCodeHash: hash,
};
const all = { ...v2v3, v4PoolManager: address(3), v4PositionManager: address(4), v4StateView: address(5) };

describe("reportIndex", () => {
  it("says a process that read the indexer's saved index scanned nothing", () => {
    const lines: string[] = [];
    const deployment = { poolsFromBlock: "1", contracts: all } as never;
    reportIndex(
      [pool("v2"), pool("v3")],
      deployment,
      { to: 220n, readSaved: true },
      (l) => lines.push(l),
      logger,
    );
    expect(lines).toEqual([
      "read 2 pools (1 V2, 1 V3, 0 V4) through block 220 from the index the indexer saved; this process scanned no block (another process indexes)",
    ]);
  });

  it("says the indexer indexed from the first block, and which pool sources the deployment leaves out", () => {
    const lines: string[] = [];
    const deployment = { poolsFromBlock: "1", contracts: v2v3 } as never;
    reportIndex([pool("v2")], deployment, { to: 220n }, (l) => lines.push(l), logger);
    expect(lines).toEqual([
      "indexed 1 pools (1 V2, 0 V3) from block 1 through 220",
      "uniswap-v4 disabled: no v4PoolManager in the deployment; its pools are neither indexed nor routed through",
    ]);
  });
});
