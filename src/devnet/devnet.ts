import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { createTestClient, http, publicActions, toHex, zeroAddress } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { CHAIN_ID } from "../chain/chain.ts";
import { DEFAULT_DEVNET_SEED } from "../config/settings.ts";
import { officialBytecode } from "../contracts/official.ts";
import { type Anvil, AnvilStartError, startAnvil } from "./anvil.ts";
import { saveState, startChainSaver } from "./chain-saver.ts";
import { deployAggregators, SETTLER_FEATURE } from "./deploy-aggregators.ts";
import { deployJunction } from "./deploy-junction.ts";
import { approveForSeeding, deployTokens } from "./deploy-tokens.ts";
import { deployUniswap } from "./deploy-uniswap.ts";
import { devnetFingerprint } from "./fingerprint.ts";
import { type Manifest, type ManifestPool, readManifest, writeManifest } from "./manifest.ts";
import { seedV2Pool } from "./seed-v2.ts";
import { seedV3Pool } from "./seed-v3.ts";
import { HOOK_ADDRESSES, seedV4Pool } from "./seed-v4.ts";
import { createSender } from "./sender.ts";
import { buildUniverse, NATIVE, WRAPPED } from "./universe.ts";

/** anvil's well-known development mnemonic; its accounts are public, so the devnet lists their keys. */
export const MNEMONIC = "test test test test test test test test test test test junk";
/** anvil funds the first ten accounts of the mnemonic. */
export const ACCOUNT_COUNT = 10;
/** Roles of the funded accounts: 0 deploys, 1 governs our contracts, 2 owns the demo builder, 2-9 test. */
const GOVERNANCE_INDEX = 1;
const DEMO_BUILDER_OWNER_INDEX = 2;
/** The treasury (service fee recipient) is the mnemonic's next account: no tokens, ETH for claiming. */
const TREASURY_INDEX = 10;
const TREASURY_ETH = 100n * 10n ** 18n;

export type DevnetOptions = {
  /** Directory for `devnet/manifest.json` and `devnet/state.json`. */
  dataDir: string;
  seed?: number;
  /** anvil port; 0 picks a free one. */
  port?: number;
  /** Seconds between background blocks (0 disables; transactions are always mined on arrival). */
  blockTime?: number;
  /** Save the chain state on stop so the next start continues from it (the service does; tests do not). */
  persist?: boolean;
  /** Human-readable progress lines while booting. */
  progress?: (line: string) => void;
};

export type Devnet = {
  rpcUrl: string;
  manifest: Manifest;
  manifestPath: string;
  /** How this boot went: `cold` seeded a new universe, `warm` restored saved state. */
  boot: { kind: "cold" | "warm"; ms: number; reason?: string };
  anvil: Anvil;
  /** Saves state (when persisting) and stops anvil. Idempotent. */
  stop: () => Promise<void>;
};

/** The service's devnet: configured seed, port and block time, state persisted across restarts. */
export function configuredDevnet(
  chain: { seed: number; port: number; blockTime: number },
  dataDir: string,
  progress: (line: string) => void,
): Promise<Devnet> {
  return startDevnet({
    dataDir,
    seed: chain.seed,
    port: chain.port,
    blockTime: chain.blockTime,
    persist: true,
    progress: (line) => progress(`devnet: ${line}`),
  });
}

/**
 * Starts the embedded devnet: anvil on loopback with chain id 4663, either restored from saved state
 * (warm, seconds) or freshly deployed and seeded from the official Uniswap artifacts (cold).
 */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const started = performance.now();
  const progress = options.progress ?? (() => {});
  const seed = options.seed ?? DEFAULT_DEVNET_SEED;
  const dir = join(options.dataDir, "devnet");
  const manifestPath = join(dir, "manifest.json");
  const statePath = join(dir, "state.json");
  mkdirSync(dir, { recursive: true });

  const universe = buildUniverse(seed);
  const fingerprint = devnetFingerprint(universe);

  const saved = readManifest(manifestPath);
  let reason = "";
  if (!saved) reason = "no saved devnet";
  else if (saved.fingerprint !== fingerprint) reason = "the devnet definition changed since it was saved";
  else if (!existsSync(statePath)) reason = "no saved chain state";
  const warm = reason === "";

  progress(
    `starting anvil (chain id ${CHAIN_ID}${options.blockTime ? `, a block every ${options.blockTime}s` : ""}${warm ? ", restoring saved state" : ""})`,
  );
  let anvil: Anvil;
  try {
    anvil = await startAnvil({
      port: options.port ?? 0,
      blockTime: options.blockTime ?? 0,
      ...(warm ? { loadState: statePath } : {}),
    });
  } catch (error) {
    if (!warm || !(error instanceof AnvilStartError)) throw error;
    // An unreadable state file (truncated, or written by another anvil version) costs a cold boot, not a failure.
    progress("anvil could not load the saved chain state; seeding anew");
    renameSync(manifestPath, `${manifestPath}.stale`);
    return startDevnet(options);
  }
  const client = createTestClient({ mode: "anvil", transport: http(anvil.rpcUrl), cacheTime: 0 }).extend(
    publicActions,
  );
  try {
    if (saved && warm) {
      const block = await client
        .getBlock({ blockNumber: BigInt(saved.deploymentBlock) })
        .catch(() => undefined);
      if (block?.hash === saved.deploymentBlockHash) {
        const manifest = { ...saved, rpcUrl: anvil.rpcUrl };
        writeManifest(manifestPath, manifest);
        return finish({ kind: "warm", manifest });
      }
      // A fresh node is simpler than undoing a load; moving the manifest aside makes the retry boot cold.
      progress("the saved chain state does not match its manifest; seeding anew");
      await anvil.stop();
      renameSync(manifestPath, `${manifestPath}.stale`);
      return startDevnet(options);
    }

    progress(`seeding a new devnet universe from seed ${seed} (${reason})`);
    const manifest = await seed_(client, anvil.rpcUrl, seed, fingerprint, universe, progress);
    await saveState(client, statePath);
    writeManifest(manifestPath, manifest);
    return finish({ kind: "cold", manifest, reason });
  } catch (error) {
    await anvil.stop();
    throw error;
  }

  function finish({
    kind,
    manifest,
    reason,
  }: {
    kind: "cold" | "warm";
    manifest: Manifest;
    reason?: string;
  }): Devnet {
    let stopping: Promise<void> | undefined;
    const saver = options.persist ? startChainSaver({ client, statePath, onError: progress }) : undefined;
    return {
      rpcUrl: anvil.rpcUrl,
      manifest,
      manifestPath,
      boot: { kind, ms: Math.round(performance.now() - started), ...(reason ? { reason } : {}) },
      anvil,
      stop: () => {
        stopping ??= (async () => {
          await saver?.stop();
          await anvil.stop();
        })();
        return stopping;
      },
    };
  }
}

type DevnetClient = ReturnType<typeof createTestClient> & ReturnType<typeof publicActions>;

/** Deploys everything and seeds the universe; returns the manifest describing it. */
async function seed_(
  client: DevnetClient,
  rpcUrl: string,
  seed: number,
  fingerprint: `0x${string}`,
  universe: ReturnType<typeof buildUniverse>,
  progress: (line: string) => void,
): Promise<Manifest> {
  const accounts = Array.from({ length: ACCOUNT_COUNT + 1 }, (_, index) => {
    const account = mnemonicToAccount(MNEMONIC, { addressIndex: index });
    return { address: account.address, privateKey: toHex(account.getHdKey().privateKey!) };
  });
  const funded = accounts.slice(0, ACCOUNT_COUNT);
  const treasury = accounts[TREASURY_INDEX]!.address;
  const deployer = accounts[0]!.address;
  const sender = createSender(client as never, deployer);
  const deploymentBlock = (await client.getBlockNumber()) + 1n;

  const uniswap = await deployUniswap(client as never, sender, (step) => progress(`deploying ${step}`));
  const hookCode = officialBytecode("EmptyTestHooks").deployedBytecode;
  for (const hook of Object.values(HOOK_ADDRESSES))
    await client.setCode({ address: hook, bytecode: hookCode });

  progress(`deploying ${universe.tokens.length} tokens`);
  const tokens = await deployTokens(
    sender,
    universe.tokens,
    funded.map((account) => account.address),
  );
  await approveForSeeding(
    sender,
    uniswap,
    tokens.map((token) => token.address),
  );

  const addressOf = (symbol: string) => {
    if (symbol === WRAPPED) return uniswap.weth9;
    if (symbol === NATIVE) return zeroAddress;
    const token = tokens.find((candidate) => candidate.symbol === symbol);
    if (!token) throw new Error(`unknown token ${symbol}`);
    return token.address;
  };
  const pools: ManifestPool[] = [];
  let done = 0;
  for (const pool of universe.pools) {
    if (++done % 20 === 0 || done === universe.pools.length)
      progress(`seeding pools ${done}/${universe.pools.length}`);
    if (pool.kind === "v2") {
      const address = await seedV2Pool(client as never, sender, uniswap, pool, addressOf);
      const [token0, token1] = sortPair(addressOf(pool.token0), addressOf(pool.token1));
      pools.push({
        kind: "v2",
        address,
        token0,
        token1,
        symbols: symbolsFor(pool, addressOf),
        fee: 3000,
        routable: true,
      });
    } else if (pool.kind === "v3") {
      const seeded = await seedV3Pool(sender, uniswap, pool, addressOf);
      pools.push({
        kind: "v3",
        address: seeded.address,
        token0: seeded.token0,
        token1: seeded.token1,
        symbols: symbolsFor(pool, addressOf),
        fee: pool.fee,
        tickSpacing: pool.tickSpacing,
        routable: true,
      });
    } else {
      const seeded = await seedV4Pool(sender, uniswap, pool, addressOf);
      pools.push({
        kind: "v4",
        poolId: seeded.poolId,
        key: seeded.key,
        symbols: symbolsFor(pool, addressOf),
        fee: pool.fee,
        tickSpacing: pool.tickSpacing,
        hook: pool.hook,
        routable: pool.hook === "none",
      });
    }
  }

  // Before Junction: the executor is built with the stand-ins' router, allowance holder and settler registry.
  progress("deploying the aggregator stand-ins' contracts");
  const aggregators = await deployAggregators(sender, uniswap, deployer);
  progress("deploying the executor, builder registry and settlement collector");
  await client.setBalance({ address: treasury, value: TREASURY_ETH });
  const junction = await deployJunction({
    deployer: sender,
    governance: createSender(client as never, accounts[GOVERNANCE_INDEX]!.address),
    builderOwner: createSender(client as never, accounts[DEMO_BUILDER_OWNER_INDEX]!.address),
    treasury,
    uniswap,
    aggregators: {
      router: aggregators.aggregatorARouter,
      allowanceHolder: aggregators.allowanceHolder,
      settlerRegistry: aggregators.settlerRegistry,
      settlerFeature: BigInt(SETTLER_FEATURE),
    },
    addressOf,
  });
  const { executor, builderRegistry, settlementCollector, ...junctionSetup } = junction;

  const block = await client.getBlock({ blockNumber: deploymentBlock });
  return {
    format: 1,
    fingerprint,
    seed,
    chainId: CHAIN_ID,
    rpcUrl,
    deploymentBlock: deploymentBlock.toString(),
    // Uniswap is deployed in the same run, after this block: pool discovery starts with Junction's contracts.
    poolsFromBlock: deploymentBlock.toString(),
    deploymentBlockHash: block.hash,
    contracts: { ...uniswap, executor, builderRegistry, settlementCollector },
    junction: junctionSetup,
    aggregators,
    hooks: { swapHook: HOOK_ADDRESSES["swap-hook"], dynamicFeeHook: HOOK_ADDRESSES["dynamic-fee"] },
    tokens: [
      { address: uniswap.weth9, symbol: "WETH", name: "Wrapped Ether", decimals: 18, kind: "standard" },
      ...tokens.map(({ address, symbol, name, decimals, kind }) => ({
        address,
        symbol,
        name,
        decimals,
        kind,
      })),
    ],
    pools,
    accounts: accounts.map((account, index) => ({ role: roleOf(index), ...account })),
  };
}

function roleOf(index: number): Manifest["accounts"][number]["role"] {
  if (index === 0) return "deployer";
  if (index === GOVERNANCE_INDEX) return "governance";
  if (index === TREASURY_INDEX) return "treasury";
  return "test";
}

function sortPair(a: `0x${string}`, b: `0x${string}`): [`0x${string}`, `0x${string}`] {
  return BigInt(a) < BigInt(b) ? [a, b] : [b, a];
}

/** Symbols in the pool's token0/token1 (address) order. */
function symbolsFor(
  pool: { token0: string; token1: string },
  addressOf: (symbol: string) => `0x${string}`,
): [string, string] {
  return BigInt(addressOf(pool.token0)) < BigInt(addressOf(pool.token1))
    ? [pool.token0, pool.token1]
    : [pool.token1, pool.token0];
}
