import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createBuilderKey, createWorkspace, markActivated } from "../src/auth/keys.ts";
import { junctionChain } from "../src/chain/chain.ts";
import { loadConfig } from "../src/config/config.ts";
import { erc20Abi } from "../src/contracts/abis/ERC20.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { envelope } from "../src/events/event-envelope.ts";
import { addWebhookEndpoint, removeWebhookEndpoint } from "../src/events/webhook-endpoints.ts";
import { createLogger } from "../src/runtime/logger.ts";
import { startService } from "../src/runtime/start-service.ts";
import { insertEvents } from "../src/store/repositories/events.ts";
import { setWorkspacePlan } from "../src/store/repositories/workspaces.ts";
import { startWebhookReceiver } from "../test/webhook-receiver.ts";
import { machineLine, table } from "./machine.ts";
import { percentile } from "./measure.ts";

/** Builder swaps whose events are timed. */
const SWAPS = 12;
/** Deliveries queued to the slow receiver, and how slowly it answers. */
const BACKLOG = 1_000;
const SLOW_RECEIVER_MS = 200;
/**
 * Sequential public quotes timed before and during the backlog; with the warm-up, under the 60 admissions
 * a minute one process grants (a refused quote would time the refusal).
 */
const QUOTES = 25;
const WARM_UP_QUOTES = 5;

/**
 * `npm run bench -- webhooks`: settlement events as a builder receives them, from `junction start`'s own
 * code (in process) against the bench devnet:
 * - delivery latency: a builder swap prepared, signed and mined; `settlement.confirming` timed from the
 *   swap's receipt, `settlement.finalized` from the moment the block that finalizes it is mined, both to
 *   a loopback receiver;
 * - throughput: 1,000 deliveries queued to a receiver that takes 200 ms to answer, how many per second one
 *   process sends, and public quote latency meanwhile against before.
 */
export async function benchWebhooks(devnet: Devnet): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "junction-bench-hooks-"));
  const [port, partnerPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    JUNCTION_RPC_URL: devnet.rpcUrl,
    // New heads by subscription, as an operator with a WebSocket endpoint runs it (anvil serves both).
    JUNCTION_RPC_WS_URL: devnet.rpcUrl.replace(/^http/, "ws"),
    JUNCTION_DEPLOYMENT: devnet.manifestPath,
    JUNCTION_DATA_DIR: dataDir,
    JUNCTION_PORT: String(port),
    JUNCTION_PARTNER_PORT: String(partnerPort),
    JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "true",
    JUNCTION_DRAIN_MS: "0",
    JUNCTION_LOG_LEVEL: "warn",
  });
  const service = await startService(config, createLogger("warn"));
  const fast = await startWebhookReceiver();
  try {
    const { db } = service.store;
    const demo = devnet.manifest.junction.demoBuilder;
    const workspace = await createWorkspace(db, { name: "bench", builderCode: demo.code });
    await markActivated(db, demo.code, new Date());
    const key = (
      await createBuilderKey(db, { workspaceId: workspace.id, name: "bench", scopes: ["quote", "swap"] })
    ).secret;
    await setWorkspacePlan(db, workspace.id, "growth");
    const policy = { allowHttp: true, allowPrivate: true };
    const fastEndpoint = await addWebhookEndpoint(db, policy, workspace.id, { url: fast.url });

    const latency = await timeSwaps(devnet, service.baseUrl, key, fast);
    await removeWebhookEndpoint(db, workspace.id, fastEndpoint.endpoint.id);
    const throughput = await timeBacklog(service, workspace.id, policy);
    return [
      "## Settlement events (webhooks)",
      "",
      machineLine(
        `loopback receiver; ${SWAPS} builder swaps; devnet mining on demand; newHeads subscription`,
      ),
      "",
      ...table(
        ["delivery", "p50 ms", "p99 ms", "max ms"],
        [
          ["`settlement.confirming`, from the swap's receipt", ...stats(latency.confirming)],
          ["`settlement.finalized`, from the finalizing block mined", ...stats(latency.finalized)],
        ],
      ),
      "",
      ...table(
        ["throughput to a receiver answering in 200 ms", "value"],
        [
          ["deliveries per second, one process", throughput.perSecond.toFixed(1)],
          [`public quote p50 / p99 ms, idle (${QUOTES} sequential)`, throughput.idle],
          ["public quote p50 / p99 ms, while delivering", throughput.busy],
        ],
      ),
    ];
  } finally {
    await fast.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function stats(values: number[]): string[] {
  return [percentile(values, 50), percentile(values, 99), Math.max(...values)].map((v) => v.toFixed(0));
}

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** Builder swaps one at a time; each event's arrival timed from the chain fact it reports. */
async function timeSwaps(devnet: Devnet, baseUrl: string, key: string, receiver: Receiver) {
  const chain = junctionChain(devnet.rpcUrl);
  const client = createPublicClient({ chain, transport: http(devnet.rpcUrl), pollingInterval: 20 });
  const signer = devnet.manifest.accounts.filter((a) => a.role === "test").at(-1)!;
  const account = privateKeyToAccount(signer.privateKey);
  const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl), account });
  const weth = devnet.manifest.contracts.weth9;
  const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
  const send = async (tx: { to: `0x${string}`; data: `0x${string}`; value?: bigint; gas?: bigint }) =>
    client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ chain, account, ...tx }) });
  await send({
    to: weth,
    data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
    value: parseEther(String(SWAPS)),
  });
  await send({
    to: weth,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [devnet.manifest.contracts.executor, maxUint256],
    }),
  });
  const arrival = (type: string, hash: string) =>
    receiver.received.find((d) => {
      const event = JSON.parse(d.body) as { type: string; data: { hash: string } };
      return event.type === type && event.data.hash === hash;
    })?.at;
  const confirming: number[] = [];
  const finalized: number[] = [];
  for (let i = 0; i < SWAPS; i++) {
    const api = async (path: string, init?: RequestInit) =>
      (await (
        await fetch(`${baseUrl}${path}`, { ...init, headers: { "x-api-key": key, ...init?.headers } })
      ).json()) as {
        quoteId: string;
        tx: { to: `0x${string}`; data: `0x${string}`; gas: string };
      };
    const quote = await api(
      `/api/v2/builders/quote?${new URLSearchParams({ tokenIn: weth, tokenOut: usdc, amountIn: parseEther("1").toString(), payer: account.address })}`,
    );
    const swap = await api("/api/v2/builders/swaps", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": `bench-${Date.now()}-${i}` },
      body: JSON.stringify({ quoteId: quote.quoteId }),
    });
    const receipt = await send({ to: swap.tx.to, data: swap.tx.data, gas: BigInt(swap.tx.gas) });
    const mined = Date.now();
    await receiver.until(() => arrival("settlement.confirming", receipt.transactionHash) !== undefined);
    confirming.push(arrival("settlement.confirming", receipt.transactionHash)! - mined);
    // Finalized is latest − 2 on the devnet: the second block after the swap's finalizes it.
    await client.request({ method: "evm_mine" as never });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const finalizing = Date.now();
    await client.request({ method: "evm_mine" as never });
    await receiver.until(() => arrival("settlement.finalized", receipt.transactionHash) !== undefined);
    finalized.push(arrival("settlement.finalized", receipt.transactionHash)! - finalizing);
  }
  return { confirming, finalized };
}

/** A backlog to a slow receiver: deliveries per second, and quote latency before and during it. */
async function timeBacklog(
  service: Awaited<ReturnType<typeof startService>>,
  workspaceId: string,
  policy: { allowHttp: boolean; allowPrivate: boolean },
) {
  const slow = await startSlowReceiver(SLOW_RECEIVER_MS);
  const { db } = service.store;
  await addWebhookEndpoint(db, policy, workspaceId, { url: slow.url });
  const tokens = service.deployment.tokens;
  const quoteUrl = `${service.baseUrl}/api/v2/quote?${new URLSearchParams({
    chainId: "4663",
    tokenIn: tokens.find((t) => t.symbol === "WETH")?.address ?? service.deployment.contracts.weth9,
    tokenOut: tokens.find((t) => t.symbol === "DAI")!.address,
    amountIn: parseEther("1").toString(),
  })}`;
  const quotes = async (count = QUOTES) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(quoteUrl);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`a public quote answered ${response.status}`);
      times.push(performance.now() - started);
    }
    return `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)}`;
  };
  await quotes(WARM_UP_QUOTES);
  const idle = await quotes();
  const events = Array.from({ length: BACKLOG }, (_, i) =>
    envelope(
      {
        id: `evt_bench_${Date.now()}_${i}`,
        type: "settlement.finalized",
        workspaceId,
        quoteId: null,
        data: { i },
      },
      new Date(),
    ),
  );
  const started = performance.now();
  await insertEvents(db, events);
  const busy = await quotes();
  await slow.until(BACKLOG);
  const perSecond = BACKLOG / ((performance.now() - started) / 1000);
  await slow.close();
  return { perSecond, idle, busy };
}

/** A receiver that takes `delayMs` to answer each delivery. */
async function startSlowReceiver(delayMs: number) {
  const { createServer: createHttpServer } = await import("node:http");
  let count = 0;
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on("end", () =>
      setTimeout(() => {
        count += 1;
        response.end("ok");
      }, delayMs),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/slow`,
    async until(total: number) {
      while (count < total) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
