import pino from "pino";
import { describe, expect, it } from "vitest";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import { reportIndex } from "./start-reports.ts";

const pool = (kind: "v2" | "v3") => ({ kind }) as IndexedPool;
const logger = pino({ level: "silent" });

describe("reportIndex", () => {
  it("says a process that read the indexer's saved index scanned nothing", () => {
    const lines: string[] = [];
    reportIndex([pool("v2"), pool("v3")], "1", { to: 220n, readSaved: true }, (l) => lines.push(l), logger);
    expect(lines).toEqual([
      "read 2 pools (1 V2, 1 V3, 0 V4) through block 220 from the index the indexer saved; this process scanned no block (another process indexes)",
    ]);
  });

  it("says the indexer indexed from the first block", () => {
    const lines: string[] = [];
    reportIndex([pool("v2")], "1", { to: 220n }, (l) => lines.push(l), logger);
    expect(lines).toEqual(["indexed 1 pools (1 V2, 0 V3, 0 V4) from block 1 through 220"]);
  });
});
