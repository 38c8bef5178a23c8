import { randomUUID } from "node:crypto";
import { encodeFunctionData, maxUint256, parseAbi, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { startWebhookReceiver } from "../../test/webhook-receiver.ts";
import { createSettlementIndex } from "../builders/settlement-index.ts";
import { settlementSources } from "../builders/settlement-logs.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { deliveriesOf } from "../store/repositories/webhook-deliveries.ts";
import { startWebhookSender } from "./deliver-webhooks.ts";
import { createOutboxSignal } from "./outbox-signal.ts";
import { type FactBlock, settlementFacts } from "./settlement-facts.ts";
import { addWebhookEndpoint } from "./webhook-endpoints.ts";
import { SIGNATURE_HEADER, signatureValid } from "./webhook-signature.ts";

// biome-ignore lint/suspicious/noExplicitAny: event bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * Settlement events end to end on a devnet, in process: a prepared builder swap mined (confirming), then
 * finalized by the settlement index, each delivered as a signed webhook (the receiver failing twice first),
 * streamed as Server-Sent Events and resumed by Last-Event-ID; a confirming swap dropped by `anvil_reorg`
 * (reorged). The head follower's part is played by handing `observe` the blocks as the chain has them.
 */
const PAYER = 7;
let devnet: TestDevnet;
let api: BuilderTestApi;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let sender: ReturnType<typeof startWebhookSender>;
let facts: ReturnType<typeof settlementFacts>;
let index: ReturnType<typeof createSettlementIndex>;
let key: string;
let workspaceId: string;
let secret: string;
let endpointId: string;
const signal = createOutboxSignal();

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet, { postgres: true, events: { signal, leaving: () => false } });
  const demo = await api.workspace({ code: devnet.manifest.junction.demoBuilder.code, plan: "growth" });
  workspaceId = demo.id;
  key = await api.key(demo.id, ["quote", "swap", "receipts"]);
  const { db } = api.store;
  const { contracts } = devnet.manifest;
  facts = settlementFacts({
    db,
    collector: contracts.settlementCollector,
    executor: contracts.executor,
    onWritten: signal.notify,
  });
  index = createSettlementIndex({
    client: devnet.publicClient,
    db,
    sources: settlementSources(contracts),
    deploymentBlock: BigInt(devnet.manifest.deploymentBlock),
    facts,
  });
  await index.sync();
  receiver = await startWebhookReceiver();
  const added = await addWebhookEndpoint(db, { allowHttp: true, allowPrivate: true }, workspaceId, {
    url: receiver.url,
  });
  secret = added.secret;
  endpointId = added.endpoint.id;
  sender = startWebhookSender({
    db,
    allowPrivate: true,
    signal,
    logger: { warn: () => {} },
    pollMs: 100,
    retryScale: 0.01,
  });
});
afterAll(async () => {
  await sender?.stop();
  await receiver?.close();
  await api?.close();
  await devnet?.dispose();
});

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;

/** A builder swap as an integrator runs it: quote, prepare, wrap and approve, send. Returns its receipt. */
async function builderSwap(amount: string) {
  const wallet = devnet.wallet(PAYER);
  const account = wallet.account!;
  const quoted = await api.call("GET", "/api/v2/builders/quote", {
    key,
    query: {
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther(amount).toString(),
      payer: account.address,
    },
  });
  const quote = (await quoted.json()) as Json;
  expect(quoted.status, JSON.stringify(quote)).toBe(200);
  const prepared = await api.call("POST", "/api/v2/builders/swaps", {
    key,
    body: { quoteId: quote.quoteId },
    headers: { "idempotency-key": randomUUID() },
  });
  const swap = (await prepared.json()) as Json;
  expect(prepared.status, JSON.stringify(swap)).toBe(200);
  const weth = devnet.manifest.contracts.weth9;
  for (const tx of [
    {
      to: weth,
      data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
      value: parseEther(amount),
    },
    {
      to: weth,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [swap.tx.to, maxUint256] }),
      value: 0n,
    },
  ]) {
    const hash = await wallet.sendTransaction({ account, chain: wallet.chain, ...tx });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
  }
  const hash = await wallet.sendTransaction({
    account,
    chain: wallet.chain,
    to: swap.tx.to,
    data: swap.tx.data,
    value: BigInt(swap.tx.value),
    gas: BigInt(swap.tx.gas),
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return { quote, receipt };
}

/** The block at `number` as the head follower hands it over: its hash and its logs. */
async function blockAt(number: bigint): Promise<FactBlock> {
  const block = await devnet.publicClient.getBlock({ blockNumber: number });
  const logs = await devnet.publicClient.getLogs({ blockHash: block.hash });
  return { number, hash: block.hash, logs };
}

const mine = (blocks: number) => devnet.testClient.mine({ blocks });
const bodies = () => receiver.received.map((delivery) => JSON.parse(delivery.body) as Json);
const ofType = (type: string) => bodies().filter((body) => body.type === type);

describe("settlement events", () => {
  let first: { quote: Json; receipt: Awaited<ReturnType<typeof builderSwap>>["receipt"] };

  it("delivers settlement.confirming once the prepared swap is mined, signed, on the third attempt after two 500s", async () => {
    receiver.answer(500, 500);
    first = await builderSwap("1");
    await facts.observe([await blockAt(first.receipt.blockNumber)]);
    await receiver.until((received) => received.length >= 3);
    const attempts = receiver.received.slice(0, 3);
    // The same event three times, each signed for the moment it was sent.
    expect(new Set(attempts.map((a) => a.headers["junction-event-id"])).size).toBe(1);
    for (const attempt of attempts) {
      expect(
        signatureValid(String(attempt.headers[SIGNATURE_HEADER.toLowerCase()]), attempt.body, secret),
      ).toBe(true);
      expect(
        signatureValid(String(attempt.headers[SIGNATURE_HEADER.toLowerCase()]), attempt.body, "whsec_other"),
      ).toBe(false);
    }
    const event = JSON.parse(attempts[2]!.body) as Json;
    expect(event).toMatchObject({
      type: "settlement.confirming",
      workspace: workspaceId,
      quoteId: first.quote.quoteId,
      data: {
        status: "confirming",
        quoteId: first.quote.quoteId,
        builderCode: devnet.manifest.junction.demoBuilder.code,
        hash: first.receipt.transactionHash,
        blockNumber: first.receipt.blockNumber.toString(),
        blockHash: first.receipt.blockHash,
        amountOut: first.quote.amountOut,
        routeFee: first.quote.routeFee,
        builderFee: first.quote.builderFee,
      },
    });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    await waitForDelivered(1);
    const [log] = await deliveriesOf(api.store.db, endpointId, 10);
    expect(log).toMatchObject({
      status: "delivered",
      attempts: 3,
      lastStatus: 200,
      eventType: "settlement.confirming",
    });
    // Seeing the same block again (another process, a restart) writes nothing new.
    await facts.observe([await blockAt(first.receipt.blockNumber)]);
    expect(await deliveriesOf(api.store.db, endpointId, 10)).toHaveLength(1);
  });

  it("delivers settlement.finalized with the history entry once the settlement index reaches finality", async () => {
    await mine(3);
    await index.sync();
    await receiver.until(() => ofType("settlement.finalized").length === 1);
    const [finalized] = ofType("settlement.finalized");
    const history = await api.call("GET", "/api/v2/builders/history", { key: await receiptsKey() });
    const entries = ((await history.json()) as Json).settlements as Json[];
    const entry = entries.find((e) => e.hash === first.receipt.transactionHash)!;
    expect(finalized!.data).toEqual({
      ...entry,
      hash: entry.hash.toLowerCase() === entry.hash ? entry.hash : entry.hash,
    });
    expect(finalized!.data.status).toBe("finalized");
    await index.sync();
    await waitForDelivered(2);
    expect(ofType("settlement.finalized")).toHaveLength(1);
  });

  it("streams the workspace's events as Server-Sent Events and resumes after Last-Event-ID", async () => {
    const all = await readStream({ since: "0" }, 2);
    expect(all.map((message) => message.event)).toEqual(["settlement.confirming", "settlement.finalized"]);
    for (const message of all) expect(JSON.parse(message.data).id).toBe(message.id);
    const resumed = await readStream({}, 1, { "last-event-id": all[0]!.id });
    expect(resumed.map((message) => message.id)).toEqual([all[1]!.id]);
    const unknown = await api.call("GET", "/api/v2/builders/events", {
      key,
      headers: { "last-event-id": "evt_00000000000000000000000000000000" },
    });
    expect(unknown.status).toBe(409);
    expect(((await unknown.json()) as Json).error.code).toBe("EVENT_ID_UNKNOWN");
  });

  it("reports settlement.reorged when a confirming swap's block is replaced, and never finalizes it", async () => {
    const second = await builderSwap("0.5");
    await facts.observe([await blockAt(second.receipt.blockNumber)]);
    await receiver.until(() =>
      ofType("settlement.confirming").some((e) => e.data.hash === second.receipt.transactionHash),
    );
    // A one-block reorg: the swap's block is replaced by one without it.
    await devnet.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    await facts.observe([await blockAt(second.receipt.blockNumber)]);
    await receiver.until(() => ofType("settlement.reorged").length === 1);
    const [reorged] = ofType("settlement.reorged");
    expect(reorged!.data).toMatchObject({
      status: "reorged",
      hash: second.receipt.transactionHash,
      blockHash: second.receipt.blockHash,
    });
    await mine(3);
    await index.sync();
    const finalizedHashes = ofType("settlement.finalized").map((e) => e.data.hash);
    expect(finalizedHashes).not.toContain(second.receipt.transactionHash);
    expect(ofType("settlement.reorged")).toHaveLength(1);
  });
});

async function waitForDelivered(count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const log = await deliveriesOf(api.store.db, endpointId, 100);
    if (log.filter((entry) => entry.status === "delivered").length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`fewer than ${count} deliveries delivered`);
}

async function receiptsKey(): Promise<string> {
  return api.key(workspaceId, ["receipts"]);
}

type SseMessage = { id: string; event: string; data: string };

/** Reads `count` messages of the workspace's event stream, then drops the connection. */
async function readStream(
  query: Record<string, string>,
  count: number,
  headers: Record<string, string> = {},
) {
  const abort = new AbortController();
  const response = await api.app.request(`/api/v2/builders/events?${new URLSearchParams(query)}`, {
    headers: { "x-api-key": key, ...headers },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const messages: SseMessage[] = [];
  while (messages.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split("\n")
          .filter((line) => !line.startsWith(":") && line.includes(":"))
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trimStart()]),
      );
      if (fields.id) messages.push(fields as SseMessage);
      end = buffer.indexOf("\n\n");
    }
  }
  abort.abort();
  await reader.cancel().catch(() => {});
  return messages;
}
