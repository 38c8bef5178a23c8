import { describe, expect, it } from "vitest";
import { adoptionProgress } from "./adoption-progress.ts";
import { DISCOVERY_PROGRESS_MS } from "./discovery-progress.ts";

describe("adoption progress", () => {
  it("says how far a paced take-in got every few seconds, then once how it ended", () => {
    let clock = 0;
    const lines: string[] = [];
    const tell = adoptionProgress(
      (line) => lines.push(line),
      () => clock,
    );
    tell({ followed: 1_000, indexed: 10_000, left: 9_000 });
    clock = DISCOVERY_PROGRESS_MS - 1;
    tell({ followed: 2_000, indexed: 10_000, left: 8_000 });
    expect(lines).toEqual([]);
    clock = DISCOVERY_PROGRESS_MS;
    tell({ followed: 3_000, indexed: 10_000, left: 7_000 });
    expect(lines).toEqual([
      "followed pool state: 3000 of 10000 pools followed (30%), 400 pools/s, about 18 s left; quotes read the others directly",
    ]);
    clock = 20_000;
    tell({ followed: 9_990, indexed: 10_000, left: 0 });
    expect(lines[1]).toBe("followed pool state: 9990 of 10000 pools followed, taken in over 20 s");
  });

  it("says the first take-in even when one step did it, and later single-step ones not at all", () => {
    const lines: string[] = [];
    const tell = adoptionProgress((line) => lines.push(line));
    tell({ followed: 300, indexed: 300, left: 0 });
    tell({ followed: 301, indexed: 301, left: 0 });
    expect(lines).toEqual([expect.stringMatching(/^followed pool state: 300 of 300 pools followed/)]);
  });
});
