import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Devnet, startDevnet } from "../src/devnet/devnet.ts";

/** Saved devnets to start from, best first: the service's own, then the test suite's snapshot. */
const SOURCES = [join("data", "devnet"), join("node_modules", ".cache", "junction-test-devnet", "devnet")];

/**
 * A private devnet for the benchmark: restored from a copy of a saved one when there is one (a warm
 * boot; a stale copy just boots cold), seeded from scratch otherwise. Its data dir is removed on stop.
 */
export async function startBenchDevnet(progress: (line: string) => void): Promise<Devnet> {
  const dataDir = mkdtempSync(join(tmpdir(), "junction-bench-"));
  const source = SOURCES.find((dir) => existsSync(join(dir, "state.json")));
  if (source) cpSync(source, join(dataDir, "devnet"), { recursive: true });
  const devnet = await startDevnet({ dataDir, blockTime: 0, progress });
  return {
    ...devnet,
    stop: async () => {
      await devnet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
