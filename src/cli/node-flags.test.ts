import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVICE_NODE_FLAGS, withServiceFlags } from "./node-flags.ts";

describe("the service's V8 flags", () => {
  it("are passed by `npm start` and the benchmarks, which measure what the service runs", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
    };
    for (const flag of SERVICE_NODE_FLAGS) {
      expect(scripts.start).toContain(`node ${flag}`);
      expect(scripts.bench).toContain(`node ${flag}`);
    }
  });

  it("are added to a worker's execArgv when missing, keeping a value the operator chose", () => {
    expect(withServiceFlags(["--import", "tsx"])).toEqual(["--import", "tsx", ...SERVICE_NODE_FLAGS]);
    expect(withServiceFlags(["--max-semi-space-size=32"])).toEqual(["--max-semi-space-size=32"]);
    expect(withServiceFlags([...SERVICE_NODE_FLAGS])).toEqual([...SERVICE_NODE_FLAGS]);
  });
});
