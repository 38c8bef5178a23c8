import { randomUUID } from "node:crypto";
import { encodeFunctionData, maxUint256, parseAbi, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBaseApp } from "../../../src/api/base-app.ts";
import type { SettlementEntry } from "../../../src/builders/history.ts";
import { settlementEntryWire, settlementEvent } from "../../../src/events/event-envelope.ts";
import { createOutboxSignal } from "../../../src/events/outbox-signal.ts";
import { createAdmission } from "../../../src/quote/admission.ts";
import { insertEvents } from "../../../src/store/repositories/events.ts";
import { type BuilderTestApi, createBuilderTestApi } from "../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { createPartnerTestApi, type PartnerTestApi } from "../../../test/partner-api.ts";
import {
  createJunctionClient,
  createPartnerClient,
  JunctionApiError,
  prepareForSigning,
  type SettlementEvent,
  SIGNING_MARGIN_SECONDS,
  secondsLeft,
  signAndSend,
  WalletFlowError,
} from "./index.ts";

/**
 * The SDK as an integrator's backend uses it, against the service's real apps on a devnet (requests go
 * through each app's own fetch): typed calls, errors with their code, Retry-After honoured, and the
 * rule-16 wallet flow signing exactly what it simulated last, and the settlement event stream.
 */
const PAYER = 7;
let devnet: TestDevnet;
let builders: BuilderTestApi;
let partner: PartnerTestApi;
let key: string;
let demo: { id: string; code: string };
const outbox = createOutboxSignal();

beforeAll(async () => {
  devnet = await startTestDevnet();
  builders = await createBuilderTestApi(devnet, { events: { signal: outbox, leaving: () => false } });
  partner = await createPartnerTestApi(devnet);
  demo = await builders.workspace({ code: devnet.manifest.junction.demoBuilder.code, plan: "growth" });
  key = await builders.key(demo.id, ["quote", "swap", "receipts", "tokens"]);
});
afterAll(async () => {
  await builders?.close();
  await partner?.close();
  await devnet?.dispose();
});

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const inProcess =
  (app: { fetch: (request: Request) => Response | Promise<Response> }) => async (request: Request) =>
    app.fetch(request);
const builderClient = (apiKey = key) =>
  createJunctionClient({ baseUrl: "http://junction.test", apiKey, fetch: inProcess(builders.app) });

describe("the SDK against the service", () => {
  it("quotes, prepares and sends a builder swap through the wallet flow, then verifies it to finality", async () => {
    const client = builderClient();
    const wallet = devnet.wallet(PAYER);
    const payer = wallet.account!.address;
    const quote = await client.builders.quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer,
    });
    expect(quote.policySource).toBe("onchain");
    const prepared = await client.builders.prepareSwap(quote.quoteId, randomUUID());

    // Past its deadline (a clock an hour ahead), it is refused before the node or the wallet is asked.
    const later = () => (prepared.deadline + 3600) * 1000;
    const asked: string[] = [];
    const watched = new Proxy(devnet.publicClient, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (typeof value === "function") asked.push(String(property));
        return value;
      },
    });
    const stale = await prepareForSigning(watched, prepared.tx, { ...prepared, now: later }).catch(
      (error: unknown) => error,
    );
    expect(stale).toBeInstanceOf(WalletFlowError);
    expect((stale as WalletFlowError).reason).toBe("expired");
    expect(asked).toEqual([]);

    // Before approving: the fresh simulation reverts, and the wallet is never asked to sign.
    const nonce = await devnet.publicClient.getTransactionCount({ address: payer });
    const refused = await prepareForSigning(devnet.publicClient, prepared.tx).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(WalletFlowError);
    expect((refused as WalletFlowError).reason).toBe("simulation-reverted");
    expect(await devnet.publicClient.getTransactionCount({ address: payer })).toBe(nonce);

    const weth = devnet.manifest.contracts.weth9;
    for (const [data, value] of [
      [
        encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
        parseEther("1"),
      ],
      [
        encodeFunctionData({
          abi: parseAbi(["function approve(address,uint256) returns (bool)"]),
          functionName: "approve",
          args: [prepared.approval!.spender as `0x${string}`, maxUint256],
        }),
        0n,
      ],
    ] as const) {
      const hash = await wallet.sendTransaction({
        account: wallet.account!,
        chain: wallet.chain,
        to: weth,
        data,
        value,
      });
      await devnet.publicClient.waitForTransactionReceipt({ hash });
    }

    const signable = await prepareForSigning(devnet.publicClient, prepared.tx, prepared);
    // The signature is good until the transaction's deadline, and signing is refused close to it.
    expect(signable.validUntil).toBe(prepared.deadline);
    expect(secondsLeft(signable)).toBeGreaterThan(SIGNING_MARGIN_SECONDS);
    const unsent = await signAndSend(wallet, signable, later).catch((error: unknown) => error);
    expect((unsent as WalletFlowError).reason).toBe("expired");
    expect(await devnet.publicClient.getTransactionCount({ address: payer })).toBe(nonce + 2);
    const block = await devnet.publicClient.getBlock({ blockNumber: signable.simulatedAt });
    const priority = await devnet.publicClient.estimateMaxPriorityFeePerGas();
    expect(signable.fees).toEqual({
      type: "eip1559",
      maxFeePerGas: 2n * block.baseFeePerGas! + priority,
      maxPriorityFeePerGas: priority,
    });
    const hash = await signAndSend(wallet, signable);
    const sent = await devnet.publicClient.getTransaction({ hash });
    // The signature request carried exactly the fee fields of the final simulation, and nothing rerouted.
    expect({ maxFeePerGas: sent.maxFeePerGas, maxPriorityFeePerGas: sent.maxPriorityFeePerGas }).toEqual({
      maxFeePerGas: signable.fees.type === "eip1559" ? signable.fees.maxFeePerGas : undefined,
      maxPriorityFeePerGas: signable.fees.type === "eip1559" ? signable.fees.maxPriorityFeePerGas : undefined,
    });
    expect(sent.input).toBe(prepared.tx.data);
    expect((await devnet.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");

    expect(await client.builders.receipts({ quoteId: quote.quoteId, hash })).toMatchObject({
      status: "confirming",
    });
    await devnet.testClient.mine({ blocks: 3 });
    expect(await client.builders.receipts({ quoteId: quote.quoteId, hash })).toMatchObject({
      status: "finalized",
      amountOut: quote.amountOut,
    });
  });

  it("throws errors as values carrying the code, status and trace id", async () => {
    const error = await builderClient("jk_not_a_key")
      .builders.usage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JunctionApiError);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect((error as JunctionApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = await builderClient()
      .builders.quote({ tokenIn: "0x1", tokenOut: token("USDC"), amountIn: "1", payer: token("USDC") })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: "INVALID_REQUEST" });
    expect((invalid as JunctionApiError).issues.map((i) => i.path)).toContain("tokenIn");
  });

  it("waits out Retry-After when asked to, and surfaces the 429 otherwise", async () => {
    const base = createBaseApp({
      contracts: devnet.manifest.contracts,
      providers: () => [],
      latestBlock: () => devnet.publicClient.getBlockNumber(),
      logError: () => {},
      quote: builders.deps.quote,
      admission: createAdmission({ concurrency: 1 }),
    });
    const query = (amount: string) => ({
      chainId: 4663,
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("DAI"),
      amountIn: amount,
    });
    const impatient = createJunctionClient({ baseUrl: "http://junction.test", fetch: inProcess(base) });
    const patient = createJunctionClient({
      baseUrl: "http://junction.test",
      fetch: inProcess(base),
      retry: { attempts: 3, maxWaitSeconds: 5 },
    });
    const [first, second] = await Promise.allSettled([
      impatient.quote(query("1000000000000000000") as never),
      impatient.quote(query("2000000000000000000") as never),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(second).toMatchObject({ status: "rejected", reason: { code: "BUSY", retryAfterSeconds: 2 } });
    const [a, b] = await Promise.all([
      patient.quote(query("3000000000000000000") as never),
      patient.quote(query("4000000000000000000") as never),
    ]);
    expect([a.amountOut, b.amountOut].every((out) => BigInt(out) > 0n)).toBe(true);
  });

  it("reaches the partner host with a bearer key", async () => {
    const client = createPartnerClient({
      baseUrl: "http://partner.test",
      apiKey: partner.keys.quote.secret,
      fetch: inProcess(partner.app),
    });
    const usdc = await client.tokens(token("USDC"));
    expect(usdc.metadata).toMatchObject({ symbol: "USDC", decimals: 6 });
    const quote = await client.quote({ in: token("USDC"), out: token("DAI"), amount: "1000000000" }, "sdk-1");
    expect(quote).toMatchObject({ ok: true, requestId: "sdk-1" });
  });
});

describe("client.events() against the service's event stream", () => {
  /** A settlement event of the demo workspace, as the outbox keeps it (the n-th log of one transaction). */
  const written = async (...logIndexes: number[]) => {
    const events = logIndexes.map((logIndex) => {
      const entry: Omit<SettlementEntry, "status"> = {
        quoteId: `0x${"5c".repeat(32)}`,
        builderCode: demo.code,
        builderId: `0x${"b1".repeat(32)}`,
        keyIdHash: `0x${"4e".repeat(32)}`,
        payer: devnet.wallet(PAYER).account!.address,
        recipient: devnet.wallet(PAYER).account!.address,
        tokenIn: devnet.manifest.contracts.weth9,
        amountIn: 10n ** 18n,
        tokenOut: token("USDC"),
        grossAmountOut: 3_000_000_000n,
        routeFee: 1_500_000n,
        builderFee: 300_000n,
        amountOut: 2_998_200_000n,
        builderRecipient: devnet.wallet(2).account!.address,
        policyVersion: 1n,
        hash: `0x${"aa".repeat(32)}`,
        blockNumber: 100n,
        blockHash: `0x${"bb".repeat(32)}`,
        logIndex,
      };
      return settlementEvent("settlement.confirming", demo.id, settlementEntryWire(entry, "confirming"));
    });
    await insertEvents(builders.store.db, events);
    outbox.notify();
    return events.map((event) => event.id);
  };

  /** Reads `count` events from the iterator, then stops (closing the connection). */
  const read = async (
    stream: AsyncGenerator<SettlementEvent>,
    count: number,
    during?: () => Promise<void>,
  ) => {
    const seen: SettlementEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.length === 1 && during) await during();
      if (seen.length === count) break;
    }
    return seen;
  };

  it("replays since a time, follows new events, and resumes after an abort without gaps or repeats", async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const [first] = await written(1);
    const controller = new AbortController();
    const stream = builderClient().events({ since, signal: controller.signal });
    let second: string | undefined;
    const seen = await read(stream, 2, async () => {
      [second] = await written(2);
    });
    expect(seen.map((event) => event.id)).toEqual([first, second]);
    // Typed with the generated SettlementEvent, and the same JSON a webhook delivery carries.
    expect(seen[0]).toMatchObject({
      type: "settlement.confirming",
      workspace: demo.id,
      quoteId: `0x${"5c".repeat(32)}`,
      data: { status: "confirming", amountOut: "2998200000", routeFee: "1500000", logIndex: 1 },
    });
    controller.abort();

    // Written while no one listened: a new iterator from the last id gets exactly the rest, in order.
    const missed = await written(3, 4);
    const resumed = builderClient().events({ lastEventId: second! });
    let later: string | undefined;
    const rest = await read(resumed, 3, async () => {
      [later] = await written(5);
    });
    expect(rest.map((event) => event.id)).toEqual([...missed, later]);
  });

  it("reconnects by itself after a dropped connection, resuming with Last-Event-ID", async () => {
    const lastIds: (string | null)[] = [];
    let connections = 0;
    // The first connection drops at its second message, as a proxy cutting a long-lived connection would.
    const dropping = async (request: Request) => {
      lastIds.push(request.headers.get("last-event-id"));
      const response = await builders.app.fetch(request);
      if (connections++ > 0 || !response.body) return response;
      let messages = 0;
      const cut = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (new TextDecoder().decode(chunk).includes("id: ") && ++messages === 2)
            controller.error(new TypeError("terminated"));
          else controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(cut), response);
    };
    const client = createJunctionClient({ baseUrl: "http://junction.test", apiKey: key, fetch: dropping });
    const [a, b] = await written(11, 12);
    const stream = client.events({ lastEventId: a!, backoff: { initialMs: 50, maxMs: 200 } });
    let more: string[] = [];
    const seen = await read(stream, 3, async () => {
      more = await written(13, 14);
    });
    // The second message was cut on the way: it came again after the reconnection, and nothing twice.
    expect(seen.map((event) => event.id)).toEqual([b, ...more]);
    expect(lastIds).toEqual([a, b]);
  });

  it("throws the typed error for an unknown Last-Event-ID and for a key without the receipts scope", async () => {
    const unknown = await read(builderClient().events({ lastEventId: "evt_not_kept" }), 1).catch(
      (e: unknown) => e,
    );
    expect(unknown).toBeInstanceOf(JunctionApiError);
    expect(unknown).toMatchObject({ status: 409, code: "EVENT_ID_UNKNOWN" });
    const quoteOnly = await builders.key(demo.id, ["quote"]);
    const refused = await read(builderClient(quoteOnly).events(), 1).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403 });
  });
});
