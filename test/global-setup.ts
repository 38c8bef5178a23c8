import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startDevnet } from "../src/devnet/devnet.ts";

/** Where the seeded devnet snapshot is cached between runs (reused while its fingerprint matches). */
export const SNAPSHOT_DIR = join(process.cwd(), "node_modules", ".cache", "junction-test-devnet");

/** Seeds (or reuses) one devnet snapshot for the whole run; test files restore it onto their own anvil. */
export default async function setup(project: TestProject) {
  const started = performance.now();
  const devnet = await startDevnet({
    dataDir: SNAPSHOT_DIR,
    progress: (line) => process.stderr.write(`[devnet snapshot] ${line}\n`),
  });
  await devnet.stop();
  process.stderr.write(
    `[devnet snapshot] ${devnet.boot.kind} in ${((performance.now() - started) / 1000).toFixed(1)} s${devnet.boot.reason ? ` (${devnet.boot.reason})` : ""}\n`,
  );
  project.provide("devnetSnapshotDir", SNAPSHOT_DIR);
}

declare module "vitest" {
  export interface ProvidedContext {
    devnetSnapshotDir: string;
  }
}
