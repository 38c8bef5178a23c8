import { describe, expect, it } from "vitest";
import { DISCOVERY_PROGRESS_MS, discoveryLine, discoveryProgress } from "./discovery-progress.ts";

describe("discovery progress", () => {
  it("says the block reached, the pools so far, the rate and the time left", () => {
    const scan = { from: 0n, through: 119_999n, to: 199_999n, pools: 1234 };
    expect(discoveryLine(scan, 15_000)).toBe(
      "pool discovery: block 119999 of 199999 (60%), 1234 pools so far, 8000 blocks/s, about 10 s left",
    );
    expect(discoveryLine({ ...scan, through: 999n }, 10_000)).toMatch(/100 blocks\/s, about 33 min left$/);
    expect(discoveryLine({ ...scan, to: 20_000_000n, through: 9_999n }, 10_000)).toMatch(
      /about 5\.6 h left$/,
    );
  });

  it("speaks every few seconds of a long scan, measuring each sync from its own first block", () => {
    let clock = 0;
    const lines: string[] = [];
    const tell = discoveryProgress(
      (line) => lines.push(line),
      () => clock,
    );
    const scan = (from: bigint, through: bigint) => tell({ from, through, to: 100_000n, pools: 7 });
    scan(0n, 999n);
    clock = DISCOVERY_PROGRESS_MS - 1;
    scan(0n, 1_999n);
    expect(lines).toEqual([]);
    clock = DISCOVERY_PROGRESS_MS;
    scan(0n, 4_999n);
    expect(lines).toEqual([expect.stringMatching(/^pool discovery: block 4999 of 100000 \(4%\), 7 pools/)]);
    // A restart's sync resumes from its saved block: its rate counts from there.
    scan(50_000n, 50_999n);
    clock += DISCOVERY_PROGRESS_MS;
    scan(50_000n, 59_999n);
    expect(lines[1]).toMatch(/block 59999 of 100000 \(19%\).* 2000 blocks\/s, about 21 s left$/);
  });
});
