import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { builderIdOf } from "./builder-code.ts";
import { readRegistryBuilder } from "./registry-profile.ts";
import {
  registryTransaction,
  simulateRegistryTransaction,
  type UnsignedRegistryTransaction,
} from "./registry-transactions.ts";

/** Prepared registry transactions, signed by devnet wallets as a builder's wallet would sign them. */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

/** Registry reads return lowercase addresses. */
const account = (index: number) => devnet.manifest.accounts[index]!.address.toLowerCase() as `0x${string}`;
const builder = async (code: string) =>
  (await readRegistryBuilder(devnet.publicClient, registry(), code)).builder;
const registry = () => devnet.manifest.contracts.builderRegistry;

async function sign(index: number, tx: UnsignedRegistryTransaction) {
  const wallet = devnet.wallet(index);
  expect(tx.chainId).toBe(wallet.chain!.id);
  const hash = await wallet.sendTransaction({
    account: wallet.account!,
    chain: wallet.chain,
    to: tx.to,
    data: tx.data,
    value: tx.value,
  });
  return devnet.publicClient.waitForTransactionReceipt({ hash });
}

describe("registry transactions on the devnet", () => {
  it("registers a new code from the builder's wallet once simulation says it will succeed", async () => {
    const code = `rt-${randomBytes(4).toString("hex")}`;
    const tx = registryTransaction(registry(), {
      action: "register",
      code,
      recipient: account(5),
      builderFeeBps: 20,
    });
    const before = await devnet.publicClient.getBlockNumber();
    expect(await simulateRegistryTransaction(devnet.publicClient, tx, account(3))).toEqual({ ok: true });
    expect((await sign(3, tx)).status).toBe("success");
    expect(await builder(code)).toMatchObject({
      code,
      owner: account(3),
      recipient: account(5),
      builderFeeBps: 20,
      enabled: true,
      version: 1,
    });

    // Now taken; at the block before registration it was still free.
    expect(await simulateRegistryTransaction(devnet.publicClient, tx, account(4))).toEqual({
      ok: false,
      error: "BuilderAlreadyRegistered",
      args: [builderIdOf(code)],
    });
    expect(await simulateRegistryTransaction(devnet.publicClient, tx, account(4), before)).toEqual({
      ok: true,
    });

    // Later changes: only the owner, and ownership moves in two steps.
    const setFee = registryTransaction(registry(), { action: "set-fee", code, builderFeeBps: 30 });
    expect(await simulateRegistryTransaction(devnet.publicClient, setFee, account(4))).toMatchObject({
      ok: false,
      error: "NotBuilderOwner",
    });
    expect((await sign(3, setFee)).status).toBe("success");
    const handOver = registryTransaction(registry(), {
      action: "transfer-ownership",
      code,
      pendingOwner: account(4),
    });
    expect((await sign(3, handOver)).status).toBe("success");
    const accept = registryTransaction(registry(), { action: "accept-ownership", code });
    expect(await simulateRegistryTransaction(devnet.publicClient, accept, account(6))).toMatchObject({
      ok: false,
      error: "NotPendingBuilderOwner",
    });
    expect((await sign(4, accept)).status).toBe("success");
    const moveWallet = registryTransaction(registry(), {
      action: "set-recipient",
      code,
      recipient: account(4),
    });
    expect((await sign(4, moveWallet)).status).toBe("success");
    expect(await builder(code)).toMatchObject({
      owner: account(4),
      pendingOwner: "0x0000000000000000000000000000000000000000",
      recipient: account(4),
      builderFeeBps: 30,
      version: 5,
    });
  });

  it("reports a taken code and an unknown builder by the registry's error names", async () => {
    const demo = devnet.manifest.junction.demoBuilder;
    const taken = registryTransaction(registry(), {
      action: "register",
      code: demo.code,
      recipient: account(6),
      builderFeeBps: 5,
    });
    expect(await simulateRegistryTransaction(devnet.publicClient, taken, account(6))).toEqual({
      ok: false,
      error: "BuilderAlreadyRegistered",
      args: [demo.builderId],
    });
    const unknown = registryTransaction(registry(), {
      action: "set-fee",
      code: "never-registered",
      builderFeeBps: 1,
    });
    expect(await simulateRegistryTransaction(devnet.publicClient, unknown, account(6))).toMatchObject({
      ok: false,
      error: "NotBuilderOwner",
    });
  });
});
