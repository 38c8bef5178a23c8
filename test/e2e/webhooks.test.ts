import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junctionChain } from "../../src/chain/chain.ts";
import { erc20Abi } from "../../src/contracts/abis/ERC20.ts";
import { signatureValid } from "../../src/events/webhook-signature.ts";
import { startWebhookReceiver } from "../webhook-receiver.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

// biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * Settlement webhooks as a builder meets them on `npm start`: an endpoint added with the operator CLI, a
 * builder swap prepared, signed, sent and finalized on the devnet; the receiver checks every signature and
 * answers 500 to the first attempts, with the service restarted between two of them. Exactly one
 * `settlement.confirming` and one `settlement.finalized` delivery arrive, each delivered once it is answered
 * 2xx, nothing lost to the restart. The retry schedule is divided by 20 (first retry after ~250 ms).
 */
const ENV = { JUNCTION_WEBHOOK_RETRY_DIVISOR: "20" };
let service: SpawnedService;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  service = await spawnService(ENV);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  service?.kill();
  await receiver?.close();
});

const cli = async (args: string[]) => {
  const result = await service.cli([...args, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Json;
};

describe("settlement webhooks on npm start", () => {
  it("refuses an endpoint on a loopback, private or reserved address where private endpoints are not allowed", async () => {
    const manifest = service.manifest();
    for (const url of ["https://127.0.0.1/hooks", "https://10.1.2.3/hooks", "http://203.0.113.9/hooks"]) {
      // The policy of a service that does not allow private endpoints (the default on a real chain).
      const result = await service.cli(
        ["webhooks", "add", "--workspace", manifest.demoWorkspace!.builderCode, "--url", url, "--json"],
        { JUNCTION_WEBHOOKS_ALLOW_PRIVATE: "false" },
      );
      expect(result.code, url).not.toBe(0);
      expect(result.stderr).toMatch(/private|loopback|https/);
    }
  });

  it("delivers one confirming and one finalized event of a builder swap, signed, across a restart between attempts", async () => {
    const manifest = service.manifest();
    const demo = manifest.demoWorkspace!;
    const added = await cli(["webhooks", "add", "--workspace", demo.builderCode, "--url", receiver.url]);
    const secret = added.secret as string;
    expect(secret).toMatch(/^whsec_/);

    receiver.answer(500);
    const hash = await builderSwap(service, demo.keys.all);
    // The first attempt fails; the service stops and starts again before the next one.
    await receiver.until((received) => received.length >= 1, 30_000);
    const stopped = new Promise((resolve) => service.process.once("exit", resolve));
    service.process.kill("SIGTERM");
    await stopped;
    receiver.answer(500);
    service = await spawnService(ENV, { dataDir: service.dataDir });

    const of = (type: string) =>
      receiver.received.filter((delivery) => {
        const event = JSON.parse(delivery.body) as Json;
        return event.type === type && event.data.hash === hash;
      });
    await receiver.until(() => of("settlement.finalized").length > 0, 60_000);
    await receiver.until(() => of("settlement.confirming").length >= 3, 30_000);
    for (const delivery of receiver.received)
      expect(signatureValid(String(delivery.headers["junction-signature"]), delivery.body, secret)).toBe(
        true,
      );
    // One delivery per event (its attempts share the delivery id), each answered 200 once.
    for (const type of ["settlement.confirming", "settlement.finalized"]) {
      const deliveries = of(type);
      expect(new Set(deliveries.map((d) => d.headers["junction-delivery-id"])).size, type).toBe(1);
      expect(new Set(deliveries.map((d) => d.headers["junction-event-id"])).size, type).toBe(1);
    }
    expect(of("settlement.confirming")).toHaveLength(3);
    expect(of("settlement.finalized")).toHaveLength(1);
    const finalized = JSON.parse(of("settlement.finalized")[0]!.body) as Json;
    expect(finalized).toMatchObject({
      type: "settlement.finalized",
      workspace: demo.workspaceId,
      data: { status: "finalized", builderCode: demo.builderCode, hash },
    });

    const log = await cli([
      "webhooks",
      "deliveries",
      "--workspace",
      demo.builderCode,
      "--endpoint",
      added.endpoint.id,
    ]);
    const byType = Object.fromEntries((log.deliveries as Json[]).map((d) => [d.eventType, d]));
    expect(byType["settlement.confirming"]).toMatchObject({
      status: "delivered",
      attempts: 3,
      lastStatus: 200,
    });
    expect(byType["settlement.finalized"]).toMatchObject({
      status: "delivered",
      attempts: 1,
      lastStatus: 200,
    });
  }, 240_000);
});

/** The demo builder's swap of 1 WETH to USDC, prepared by the service and sent from a test wallet. */
async function builderSwap(on: SpawnedService, key: string): Promise<Hex> {
  const manifest = on.manifest();
  const chain = junctionChain(on.rpcUrl);
  const account = privateKeyToAccount(manifest.accounts[8]!.privateKey as Hex);
  const wallet = createWalletClient({ chain, transport: http(on.rpcUrl), account });
  const client = createPublicClient({ chain, transport: http(on.rpcUrl), pollingInterval: 100 });
  const weth = manifest.contracts.weth9 as Address;
  const usdc = manifest.tokens.find((t) => t.symbol === "USDC")!.address as Address;
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${on.baseUrl}${path}`, {
      ...init,
      headers: { "x-api-key": key, ...(init.headers as Record<string, string>) },
    });
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const quote = await call(
    `/api/v2/builders/quote?${new URLSearchParams({ tokenIn: weth, tokenOut: usdc, amountIn: parseEther("1").toString(), payer: account.address })}`,
  );
  const swap = await call("/api/v2/builders/swaps", {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": "webhooks-e2e-1" },
    body: JSON.stringify({ quoteId: quote.quoteId }),
  });
  const send = async (tx: { to: Address; data: Hex; value?: bigint; gas?: bigint }) => {
    const receipt = await client.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ chain, account, ...tx }),
    });
    expect(receipt.status).toBe("success");
    return receipt.transactionHash;
  };
  await send({
    to: weth,
    data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
    value: parseEther("1"),
  });
  await send({
    to: weth,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [swap.tx.to, maxUint256] }),
  });
  return send({ to: swap.tx.to, data: swap.tx.data, value: BigInt(swap.tx.value), gas: BigInt(swap.tx.gas) });
}
