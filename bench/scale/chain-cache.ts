import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Bumped whenever what a build puts on the chain changes (the universe, the seeding, the deploy plan, the
 * contracts Junction deploys: 2 since the executor became the collector, 3 since the registry's `builderTerms`
 * and the V3 callback without its own balance check, 4 since the executor keeps its own copy of the fee
 * policy and every contract is built for 1,000,000 optimizer runs), so an old cache is never measured as a
 * new one.
 */
export const SCALE_CHAIN_VERSION = 4;

export type ChainCache = {
  dir: string;
  /** anvil's state as `--dump-state` writes it, loaded with `--load-state`. */
  statePath: string;
  manifestPath: string;
  deploymentPath: string;
  /** The manifest is written last: without it the directory is an unfinished build. */
  complete: boolean;
};

/**
 * Where a built chain is kept, outside the repository: `${XDG_CACHE_HOME:-~/.cache}/junction/bench-scale/
 * <pools>-<seed>-v<version>/`. A state of 3,000 pools is a few hundred megabytes.
 */
export function chainCache(pools: number, seed: number): ChainCache {
  const root = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  const dir = join(root, "junction", "bench-scale", `${pools}-${seed}-v${SCALE_CHAIN_VERSION}`);
  const manifestPath = join(dir, "manifest.json");
  return {
    dir,
    statePath: join(dir, "state.json"),
    manifestPath,
    deploymentPath: join(dir, "deployment.json"),
    complete: existsSync(manifestPath) && existsSync(join(dir, "state.json")),
  };
}

/** Bytes under a directory (not recursive: the cache is flat). */
export function directoryBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}
