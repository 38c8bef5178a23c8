import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junctionChain } from "../../src/chain/chain.ts";
import { uniswapV2FactoryAbi } from "../../src/contracts/abis/UniswapV2Factory.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { addWebhookEndpoint } from "../../src/events/webhook-endpoints.ts";
import { signatureValid } from "../../src/events/webhook-signature.ts";
import { createStore } from "../../src/store/create-store.ts";
import { createThrowawayStore } from "../../src/store/throwaway-store.ts";
import { type RpcProxy, startRpcProxy } from "../rpc-proxy.ts";
import { startWebhookReceiver } from "../webhook-receiver.ts";
import { builderSwapToFinality } from "./builder-swap-flow.ts";
import { startDevnetProcess } from "./devnet-process.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * docs/several-hosts.md as written: `junction devnet` as the shared node, and `junction start` hosts on one
 * Postgres database, each with its own data dir and pointed at the devnet's RPC URL and manifest. Each host
 * reaches the node through a proxy of its own, so a test can cut one host's link. The indexer lease lives
 * 10 s (`INDEXER_LEASE_TTL_MS`); every wait below polls, bounded by a few lease periods.
 */
const databaseUrl = process.env.DATABASE_URL;

/** Everything a host needs, per the doc: the node, its deployment (the devnet's manifest), the database. */
type Shared = { rpcUrl: string; manifestPath: string; databaseUrl: string };

type Host = { service: SpawnedService; proxy: RpcProxy };

/** One `junction start` host with its own data dir, reaching the node through its own proxy. */
async function startHost(shared: Shared): Promise<Host> {
  const proxy = await startRpcProxy(shared.rpcUrl);
  const service = await spawnService(
    {
      JUNCTION_RPC_URL: proxy.url,
      JUNCTION_DEPLOYMENT: shared.manifestPath,
      DATABASE_URL: shared.databaseUrl,
      JUNCTION_DRAIN_MS: "0",
      // The test's webhook receiver listens on loopback.
      JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "true",
    },
    { dataDir: mkdtempSync(join(tmpdir(), "junction-host-")) },
  );
  return { service, proxy };
}

/** A gauge or counter without labels from a host's `/metrics`. */
async function metric(host: Host, name: string): Promise<number | undefined> {
  const body = await (await fetch(`${host.service.baseUrl}/metrics`)).text();
  const line = body.split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(" ").at(-1)) : undefined;
}

const isIndexer = async (host: Host) => (await metric(host, "junction_indexer")) === 1;

/** Polls `check` every 200 ms until it holds or `timeoutMs` passes; the ms it took, or undefined. */
async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}

/** Three lease periods: a dead holder's lease runs out, then the next claim (every third of it) lands. */
const TAKEOVER_BOUND_MS = 30_000;

describe.skipIf(!databaseUrl)("several hosts on one chain and one Postgres", () => {
  let devnet: Awaited<ReturnType<typeof startDevnetProcess>>;
  let database: Awaited<ReturnType<typeof createThrowawayStore>>;
  let shared: Shared;
  let manifest: Manifest;
  const hosts: Host[] = [];

  beforeAll(async () => {
    devnet = await startDevnetProcess();
    database = await createThrowawayStore(databaseUrl!, "junction_test");
    shared = { rpcUrl: devnet.rpcUrl, manifestPath: devnet.manifestPath, databaseUrl: database.url };
    manifest = JSON.parse(readFileSync(devnet.manifestPath, "utf8")) as Manifest;
    // Both at once: whichever claims the lease first indexes, the other waits for its first save.
    hosts.push(...(await Promise.all([startHost(shared), startHost(shared)])));
  });
  afterAll(async () => {
    for (const host of hosts) {
      host.service.kill();
      await host.proxy.close();
    }
    devnet?.child.kill("SIGKILL");
    await database?.close();
    if (devnet) rmSync(devnet.dataDir, { recursive: true, force: true });
  });

  const chain = () => junctionChain(devnet.rpcUrl);
  const wallet = (index: number) =>
    createWalletClient({
      chain: chain(),
      transport: http(devnet.rpcUrl),
      account: privateKeyToAccount(manifest.accounts[index]!.privateKey as Hex),
    });
  const publicClient = () =>
    createPublicClient({ chain: chain(), transport: http(devnet.rpcUrl), pollingInterval: 100 });
  const theIndexer = async () => {
    const flags = await Promise.all(hosts.map(isIndexer));
    expect(flags.filter(Boolean), "exactly one indexer").toHaveLength(1);
    return hosts[flags.indexOf(true)]!;
  };
  const symbol = (name: string) => manifest.tokens.find((t) => t.symbol === name)!.address as Address;

  it("gives less than `npm start`, as the doc says: no demo workspace or keys, no aggregator or bridge stand-ins", async () => {
    const host = hosts[0]!;
    expect(host.service.output()).not.toMatch(/demo builder|demo partner|demo transfers/);
    const written = JSON.parse(readFileSync(devnet.manifestPath, "utf8")) as Manifest;
    for (const field of ["demoWorkspace", "demoPartner", "demoTransfers", "aggregatorStandIns"] as const)
      expect(written[field], field).toBeUndefined();
    type Source = { id: string; enabled: boolean };
    const config = (await (await fetch(`${host.service.baseUrl}/api/v2/config`)).json()) as {
      providers: Source[];
      transfers: { providers: Source[] };
    };
    expect(config.providers.filter((p) => p.enabled).map((p) => p.id)).toEqual(["service"]);
    expect(config.transfers.providers.filter((p) => p.enabled)).toEqual([]);
  });

  it("delivers each settlement event once, whichever host sees the fact or claims the delivery", async () => {
    const receiver = await startWebhookReceiver();
    const store = await createStore({ databaseUrl: shared.databaseUrl, dataDir: null });
    let secret = "";
    try {
      const swap = await builderSwapToFinality({
        service: hosts[1]!.service,
        deployment: manifest,
        publicClient: publicClient(),
        wallet: wallet(5),
        tokenOut: symbol("USDC"),
        code: "hosts-hooks",
        routeBps: manifest.junction.feeSchedule.defaultRouteFeeBps,
        onWorkspace: async (workspace) => {
          const policy = { allowHttp: true, allowPrivate: true };
          secret = (await addWebhookEndpoint(store.db, policy, workspace.id, { url: receiver.url })).secret;
        },
      });
      const of = (type: string) =>
        receiver.received.filter((delivery) => {
          const event = JSON.parse(delivery.body) as { type: string; data: { hash: string } };
          return event.type === type && event.data.hash === swap.hash;
        });
      await receiver.until(() => of("settlement.finalized").length > 0, 30_000);
      // Both hosts poll the outbox every second: give a second delivery every chance to happen.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(of("settlement.confirming")).toHaveLength(1);
      expect(of("settlement.finalized")).toHaveLength(1);
      for (const delivery of receiver.received)
        expect(signatureValid(String(delivery.headers["junction-signature"]), delivery.body, secret)).toBe(
          true,
        );
    } finally {
      await store.close();
      await receiver.close();
    }
  });

  it("on the indexer's SIGKILL, another host takes over, catches up and lists a settlement once", async () => {
    const indexer = await theIndexer();
    const survivor = hosts.find((host) => host !== indexer)!;
    expect(survivor.service.output()).toMatch(/another process is the indexer/);

    // A settlement the indexer may or may not have copied before it dies: history must list it once.
    const swap = await builderSwapToFinality({
      service: survivor.service,
      deployment: manifest,
      publicClient: publicClient(),
      wallet: wallet(3),
      tokenOut: symbol("USDC"),
      code: "several-hosts",
      // The devnet's default service fee (WETH/USDC has no pair fee).
      routeBps: manifest.junction.feeSchedule.defaultRouteFeeBps,
    });

    indexer.service.process.kill("SIGKILL");
    const killedAt = Date.now();
    hosts.splice(hosts.indexOf(indexer), 1);
    indexer.service.kill();
    await indexer.proxy.close();

    // A pool created after the kill: only an indexer can bring it into the shared index.
    const [a, b] = unpairedV2Tokens(manifest);
    const { partner } = await createPartnerKey(survivor.service);
    const poolsOf = async (token: Address) => {
      const response = await fetch(`${survivor.service.partnerUrl}/tokens?address=${token}`, {
        headers: { authorization: `Bearer ${partner}` },
      });
      return ((await response.json()) as { pools: number }).pools;
    };
    const before = await poolsOf(a);
    const hash = await wallet(4).writeContract({
      address: manifest.contracts.v2Factory as Address,
      abi: uniswapV2FactoryAbi,
      functionName: "createPair",
      args: [a, b],
    });
    await publicClient().waitForTransactionReceipt({ hash });

    expect(
      await waitFor(() => isIndexer(survivor), TAKEOVER_BOUND_MS),
      "the survivor took the lease",
    ).toBeDefined();
    const takeoverMs = Date.now() - killedAt;
    const catchUpMs = await waitFor(async () => (await poolsOf(a)) === before + 1, TAKEOVER_BOUND_MS);
    expect(catchUpMs, "the new pair reached the survivor's index").toBeDefined();
    console.info(
      `several hosts: takeover ${takeoverMs} ms after SIGKILL, new pool listed ${catchUpMs} ms later`,
    );

    const settlements = async () => {
      const found: unknown[] = [];
      let cursor: string | null | undefined;
      do {
        const query = new URLSearchParams({ code: "several-hosts", ...(cursor ? { cursor } : {}) });
        const response = await fetch(`${survivor.service.baseUrl}/api/v2/builders/history?${query}`, {
          headers: { "x-api-key": swap.key },
        });
        const page = (await response.json()) as {
          settlements: { hash: string }[];
          nextCursor: string | null;
        };
        found.push(...page.settlements.filter((s) => s.hash === swap.hash));
        cursor = page.nextCursor;
      } while (cursor);
      return found;
    };
    expect(await waitFor(async () => (await settlements()).length > 0, TAKEOVER_BOUND_MS)).toBeDefined();
    expect(await settlements()).toHaveLength(1);
    expect(await readiness(survivor)).toBe(200);
  });

  it("moves the role to a host whose node answers when the indexer's node connection is cut", async () => {
    // A second host again (the first test killed one): it reads the index the indexer saved.
    hosts.push(await startHost(shared));
    const indexer = await theIndexer();
    const other = hosts.find((host) => host !== indexer)!;

    indexer.proxy.mode = { kind: "cut" };
    const movedMs = await waitFor(() => isIndexer(other), TAKEOVER_BOUND_MS);
    expect(movedMs, "the role moved").toBeDefined();
    expect(await isIndexer(indexer)).toBe(false);
    console.info(`several hosts: role moved ${movedMs} ms after the indexer's node was cut`);

    // The new indexer follows the chain: its index reaches a block mined after the move.
    const tip = Number(await publicClient().getBlockNumber());
    expect(
      await waitFor(
        async () => ((await metric(other, "junction_pool_index_block")) ?? 0) >= tip,
        TAKEOVER_BOUND_MS,
      ),
    ).toBeDefined();
  });
});

async function readiness(host: Host): Promise<number> {
  return (await fetch(`${host.service.baseUrl}/readyz`)).status;
}

async function createPartnerKey(service: SpawnedService): Promise<{ partner: string }> {
  const result = await service.cli(["partner", "key", "create", "--name", "several-hosts", "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return { partner: (JSON.parse(result.stdout) as { key: { secret: string } }).key.secret };
}

/** Two standard tokens without a V2 pair between them on the devnet, so creating one is a new pool. */
function unpairedV2Tokens(manifest: Manifest): [Address, Address] {
  const standard = manifest.tokens.filter((t) => t.kind === "standard" && t.symbol !== "WETH");
  const paired = new Set(
    manifest.pools.filter((p) => p.kind === "v2").map((p) => [...p.symbols].sort().join("/")),
  );
  for (const a of standard)
    for (const b of standard)
      if (a.symbol < b.symbol && !paired.has(`${a.symbol}/${b.symbol}`))
        return [a.address as Address, b.address as Address];
  throw new Error("every pair of standard tokens has a V2 pair");
}
