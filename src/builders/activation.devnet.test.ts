import { randomBytes } from "node:crypto";
import { encodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { bindOwner, createWorkspace } from "../auth/keys.ts";
import { createLogScanner } from "../chain/log-scanner.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { activateIfRegistered, followActivations, scanActivations } from "./activation.ts";
import { builderIdOf } from "./builder-code.ts";
import { registryTransaction } from "./registry-transactions.ts";

/** Activation picked up from the registry: registered and enabled activates; suspended does not. */
let devnet: TestDevnet;
let store: Store;
beforeAll(async () => {
  devnet = await startTestDevnet();
  store = await createStore({ dataDir: null });
});
afterAll(async () => {
  await store?.close();
  await devnet?.dispose();
});

const registry = () => devnet.manifest.contracts.builderRegistry;
const address = (index: number) => devnet.manifest.accounts[index]!.address;
const newCode = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

async function send(index: number, to: `0x${string}`, data: `0x${string}`) {
  const wallet = devnet.wallet(index);
  const hash = await wallet.sendTransaction({ account: wallet.account!, chain: wallet.chain, to, data });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function register(index: number, code: string) {
  const tx = registryTransaction(registry(), {
    action: "register",
    code,
    recipient: devnet.manifest.accounts[index]!.address,
    builderFeeBps: 10,
  });
  return send(index, tx.to, tx.data);
}

/** Governance (account 1) suspends or re-enables a builder. */
const setEnabled = (code: string, enabled: boolean) =>
  send(
    1,
    registry(),
    encodeFunctionData({
      abi: builderRegistryArtifact.abi,
      functionName: "setBuilderEnabled",
      args: [builderIdOf(code), enabled],
    }),
  );

async function activated(code: string): Promise<boolean> {
  const row = await store.db
    .selectFrom("workspaces")
    .select("activated_at")
    .where("builder_code", "=", code)
    .executeTakeFirstOrThrow();
  return row.activated_at !== null;
}

describe("builder activation from the registry", () => {
  it("activates registered, enabled codes found in the logs and leaves suspended ones waiting", async () => {
    const [live, suspended, unregistered, reenabled] = ["live", "susp", "none", "again"].map(newCode) as [
      string,
      string,
      string,
      string,
    ];
    const owners = { [live]: 3, [suspended]: 4, [reenabled]: 5, [unregistered]: 6 };
    for (const [code, account] of Object.entries(owners))
      await createWorkspace(store.db, { name: code, builderCode: code, owner: address(account) });
    const fromBlock = (await devnet.publicClient.getBlockNumber()) + 1n;
    await register(3, live);
    await register(4, suspended);
    await setEnabled(suspended, false);
    await register(5, reenabled);
    await setEnabled(reenabled, false);
    await setEnabled(reenabled, true);

    // Tiny chunks: the scan must stitch several eth_getLogs ranges together.
    const scan = await scanActivations({
      client: devnet.publicClient,
      db: store.db,
      registry: registry(),
      fromBlock,
      logs: createLogScanner({ initial: 2n, max: 2n, attempts: 1, backoffMs: 0 }),
    });
    expect(scan.activated.sort()).toEqual([live, reenabled].sort());
    expect(await activated(live)).toBe(true);
    expect(await activated(reenabled)).toBe(true);
    expect(await activated(suspended)).toBe(false);
    expect(await activated(unregistered)).toBe(false);

    // Idempotent: a rescan changes nothing.
    const again = await scanActivations({
      client: devnet.publicClient,
      db: store.db,
      registry: registry(),
      fromBlock,
    });
    expect(again.activated).toEqual([]);

    // The direct check used by the CLI says why a code is not active.
    expect(await activateIfRegistered(devnet.publicClient, store.db, registry(), suspended)).toMatchObject({
      status: "suspended",
      builder: { code: suspended, enabled: false },
    });
    expect(await activateIfRegistered(devnet.publicClient, store.db, registry(), unregistered)).toEqual({
      status: "unregistered",
    });
    await register(6, unregistered);
    expect(await activateIfRegistered(devnet.publicClient, store.db, registry(), unregistered)).toMatchObject(
      {
        status: "enabled",
        newlyActivated: true,
      },
    );
    expect(await activated(unregistered)).toBe(true);
  });

  it("follows the registry: a registration confirmed after the follower started activates its workspace", async () => {
    const code = newCode("follow");
    await createWorkspace(store.db, { name: code, builderCode: code, owner: address(7) });
    const errors: unknown[] = [];
    const seen: string[] = [];
    const follower = followActivations({
      client: devnet.publicClient,
      db: store.db,
      registry: registry(),
      fromBlock: await devnet.publicClient.getBlockNumber(),
      onError: (error) => errors.push(error),
      onActivated: (codes) => seen.push(...codes),
    });
    await follower.scan();
    expect(await activated(code)).toBe(false);
    await register(7, code);
    // A scan to the head after the registration (the head follower's, on seeing the registry's logs).
    await follower.scan();
    expect(await activated(code)).toBe(true);
    expect(seen).toEqual([code]);
    await follower.scan();
    expect(seen).toEqual([code]);
    expect(errors).toEqual([]);
  });

  it("binds a workspace to its wallet: a code registered by another wallet does not activate it", async () => {
    const [taken, unbound] = ["taken", "unbound"].map(newCode) as [string, string];
    const workspace = await createWorkspace(store.db, { name: taken, builderCode: taken, owner: address(8) });
    await createWorkspace(store.db, { name: unbound, builderCode: unbound });
    const fromBlock = (await devnet.publicClient.getBlockNumber()) + 1n;
    // Account 9 registers the code the workspace bound to account 8 was waiting for.
    await register(9, taken);
    await register(9, unbound);
    const scan = await scanActivations({
      client: devnet.publicClient,
      db: store.db,
      registry: registry(),
      fromBlock,
    });
    expect(scan.activated).toEqual([]);
    expect(await activated(taken)).toBe(false);
    expect(await activated(unbound)).toBe(false);
    expect(await activateIfRegistered(devnet.publicClient, store.db, registry(), taken)).toMatchObject({
      status: "owner-mismatch",
      boundTo: address(8).toLowerCase(),
      builder: { owner: address(9).toLowerCase() },
    });
    expect(await activateIfRegistered(devnet.publicClient, store.db, registry(), unbound)).toMatchObject({
      status: "owner-mismatch",
      boundTo: null,
    });
    // A workspace is bound once: binding it again to the registering wallet changes nothing.
    expect(await bindOwner(store.db, workspace.id, address(9))).toBe(address(8).toLowerCase());
    expect(await activated(taken)).toBe(false);
  });
});
