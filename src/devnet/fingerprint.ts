import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { devnetTokenArtifact } from "../contracts/artifacts/DevnetToken.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { feeOnTransferTokenArtifact } from "../contracts/artifacts/FeeOnTransferToken.ts";
import { namespacedTokenArtifact } from "../contracts/artifacts/NamespacedToken.ts";
import { sharesTokenArtifact } from "../contracts/artifacts/SharesToken.ts";
import { soladyLayoutTokenArtifact } from "../contracts/artifacts/SoladyLayoutToken.ts";
import { standInAggregatorRouterArtifact } from "../contracts/artifacts/StandInAggregatorRouter.ts";
import { standInAllowanceHolderArtifact } from "../contracts/artifacts/StandInAllowanceHolder.ts";
import { standInSettlerArtifact } from "../contracts/artifacts/StandInSettler.ts";
import { standInSettlerRegistryArtifact } from "../contracts/artifacts/StandInSettlerRegistry.ts";
import type { Universe } from "./universe.ts";

/** Bump when seeding changes in a way the universe plan does not show (e.g. a new deployment step). */
const SEEDING_REVISION = 5;

const require = createRequire(import.meta.url);
const OFFICIAL_PACKAGES = [
  "@uniswap/v2-core",
  "@uniswap/v2-periphery",
  "@uniswap/v3-core",
  "@uniswap/v3-periphery",
  "@uniswap/v4-core",
  "@uniswap/v4-periphery",
  "@uniswap/universal-router",
];

/**
 * Identifies a seeded devnet: the seed and universe plan, the bytecode of our tokens and contracts, the
 * official package versions and the seeding revision. A saved chain state is reused by a warm start only when this matches.
 */
export function devnetFingerprint(universe: Universe, extra: readonly string[] = []): `0x${string}` {
  const hash = createHash("sha256");
  hash.update(`revision:${SEEDING_REVISION}\n`);
  hash.update(JSON.stringify(universe, (_, value) => (typeof value === "bigint" ? value.toString() : value)));
  for (const artifact of [
    devnetTokenArtifact,
    feeOnTransferTokenArtifact,
    namespacedTokenArtifact,
    sharesTokenArtifact,
    soladyLayoutTokenArtifact,
    executorArtifact,
    builderRegistryArtifact,
    standInAggregatorRouterArtifact,
    standInAllowanceHolderArtifact,
    standInSettlerArtifact,
    standInSettlerRegistryArtifact,
  ])
    hash.update(artifact.bytecode);
  for (const name of OFFICIAL_PACKAGES) {
    const { version } = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as {
      version: string;
    };
    hash.update(`${name}@${version}\n`);
  }
  for (const item of extra) hash.update(item);
  return `0x${hash.digest("hex")}`;
}
