import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  parseAbi,
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDevnetWebhook } from "../../examples/swap-page/devnet-webhook.ts";
import type { startSwapExample } from "../../examples/swap-page/server.ts";
import { junctionChain } from "../../src/chain/chain.ts";
import { erc20Abi } from "../../src/contracts/abis/ERC20.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { launchChromium, screenshot } from "../browser/chromium.ts";
import { injectWallet } from "../browser/injected-wallet.ts";
import { freePort, type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * The example swap page (examples/swap-page) in headless Chromium: its backend holds the demo builder key
 * and talks to `junction start` through the SDK; the page shows the public comparison, then approves and
 * swaps through the builder API with the SDK's wallet flow, and shows the settlement (`confirming`, then
 * `finalized`, the devnet mining a block every 2 s) from what Junction's signed webhooks told the backend:
 * its endpoint registered for the demo workspace as `npm run example:swap` does on the devnet.
 */
const PAYER = 3;
let service: SpawnedService;
let manifest: Manifest;
let browser: Browser;
let example: Awaited<ReturnType<typeof startSwapExample>>;
let webhookSecret: string;

beforeAll(async () => {
  // The example uses the SDK as an outside project does: installed from its packed tarball.
  const installed = promisify(execFile)("node", ["scripts/install-packed-sdk.mjs", "examples/swap-page"]);
  [service, browser] = await Promise.all([spawnService(), launchChromium(), installed]);
  const { startSwapExample } = await import("../../examples/swap-page/server.ts");
  manifest = service.manifest();
  const port = await freePort();
  ({ secret: webhookSecret } = await registerDevnetWebhook({
    dataDir: service.dataDir,
    workspaceId: manifest.demoWorkspace!.workspaceId,
    url: `http://127.0.0.1:${port}/webhooks/junction`,
  }));
  example = await startSwapExample({
    junctionUrl: service.baseUrl,
    apiKey: manifest.demoWorkspace!.keys.all,
    webhookSecret,
    port,
  });
  // The payer holds WETH before visiting the page (wrapped here, as any wallet would).
  const chain = junctionChain(service.rpcUrl);
  const wallet = createWalletClient({
    account: privateKeyToAccount(manifest.accounts[PAYER]!.privateKey as Hex),
    chain,
    transport: http(service.rpcUrl),
  });
  const hash = await wallet.sendTransaction({
    to: manifest.contracts.weth9,
    data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
    value: parseEther("2"),
  });
  await createPublicClient({ chain, transport: http(service.rpcUrl) }).waitForTransactionReceipt({ hash });
}, 180_000);
afterAll(async () => {
  await example?.stop();
  await browser?.close();
  service?.kill();
});

describe("example swap page in Chromium", () => {
  it("compares, approves and swaps through the builder API, and shows the settlement Junction pushed", async () => {
    const page = await browser.newPage();
    const wallet = await injectWallet(page, {
      privateKey: manifest.accounts[PAYER]!.privateKey as Hex,
      rpcUrl: service.rpcUrl,
    });
    const usdc = manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    const reader = createPublicClient({
      chain: junctionChain(service.rpcUrl),
      transport: http(service.rpcUrl),
    });
    const balance = () =>
      reader.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [wallet.address],
      });
    const before = await balance();

    page.on("pageerror", (e) => console.info("pageerror:", e.message));
    await page.clock.install();
    await page.goto(example.url);
    await expect
      .poll(() => page.getByTestId("token-in").inputValue(), { timeout: 30_000 })
      .toBe(manifest.contracts.weth9.toLowerCase());
    expect((await page.getByTestId("token-out").inputValue()).toLowerCase()).toBe(usdc.toLowerCase());
    await page.getByTestId("amount").fill("1");
    await page.getByTestId("compare").click();
    await page.getByTestId("comparison").waitFor({ timeout: 60_000 });
    // Every candidate is listed, exactly one selected, the fee disclosed.
    expect(await page.getByTestId("selected-candidate").count()).toBe(1);
    expect(await page.getByTestId("comparison").textContent()).toMatch(/service fee \d+ bps/);
    // The selected route's price impact, exact from the pools at the quote block (or said unknown).
    expect(await page.getByTestId("price-impact").textContent()).toMatch(/^(\d+ bps|not known .*)$/);
    await screenshot(page, "swap-example-comparison");

    // The quote is shown with its countdown; when it runs out the page quotes again by itself (the page's
    // clock jumps ahead here, as a laptop lid closed for ten minutes would).
    await page.getByTestId("swap").click();
    const countdown = async () => Number(await page.getByTestId("quote-countdown").textContent());
    await page.getByTestId("quote-countdown").waitFor({ timeout: 60_000 });
    const left = await countdown();
    expect(left).toBeGreaterThan(60);
    await page.clock.fastForward((left - 10) * 1000);
    await expect
      .poll(() => page.getByTestId("steps").textContent(), { timeout: 60_000 })
      .toMatch(/ran out before it was signed: quoted again/);
    await expect.poll(countdown, { timeout: 60_000 }).toBeGreaterThan(60);
    expect(((await page.getByTestId("steps").textContent())!.match(/builder quote 0x/g) ?? []).length).toBe(
      2,
    );

    await page.getByTestId("confirm-swap").click();
    await expect
      .poll(
        () =>
          page
            .getByTestId("settlement-status")
            .textContent()
            .catch(() => null),
        { timeout: 90_000 },
      )
      .toBe("finalized")
      .catch(async (error) => {
        console.info("page at failure:", await page.locator("main").textContent());
        throw error;
      });
    await screenshot(page, "swap-example-finalized");
    expect(await page.getByTestId("error").count()).toBe(0);
    const steps = (await page.getByTestId("steps").textContent())!;
    expect(steps).toMatch(/approved: 0x[0-9a-f]{64}/);
    expect(steps).toMatch(/swapped: 0x[0-9a-f]{64}/);
    // The selected candidate is the one swapped, whoever it is, and it delivered exactly its quote.
    const selectedSource = (await page
      .getByTestId("selected-candidate")
      .locator("td")
      .first()
      .textContent())!;
    expect(steps).toContain(`from ${selectedSource}:`);
    expect(await page.getByTestId("received").textContent()).toBe(
      await page.getByTestId("quoted").textContent(),
    );
    expect(await page.getByTestId("settlement-fees").textContent()).toMatch(/service fee .+, builder fee /);

    // What the page shows came from the push: the backend's store, which only verified webhook deliveries
    // fill, holds this swap's confirming and finalized events, and the page names the finalized one.
    expect(await page.getByTestId("settlement-source").textContent()).toBe("pushed by Junction's webhook");
    const [settlement, ...others] = example.settlements.all();
    expect(others).toEqual([]);
    expect(settlement).toMatchObject({ status: "finalized", hash: wallet.sent[1]!.hash });
    expect(await page.getByTestId("settlement-event").textContent()).toBe(settlement!.eventId);
    expect(settlement!.events.map((event) => event.type).sort()).toEqual([
      "settlement.confirming",
      "settlement.finalized",
    ]);
    for (const event of settlement!.events) expect(event.deliveryId).toMatch(/^[0-9a-f-]{36}$/);

    // Approve, then swap: each signed with exactly the fee fields the wallet flow simulated last.
    expect(wallet.sent).toHaveLength(2);
    const [approve, swap] = wallet.sent;
    expect(approve!.to?.toLowerCase()).toBe(manifest.contracts.weth9.toLowerCase());
    expect(swap!.to?.toLowerCase()).toBe(manifest.contracts.executor.toLowerCase());
    for (const sent of wallet.sent) {
      const mined = await reader.getTransaction({ hash: sent.hash });
      expect(mined.maxFeePerGas).toBe(sent.maxFeePerGas);
      expect(mined.maxPriorityFeePerGas).toBe(sent.maxPriorityFeePerGas);
    }
    const settled = await reader.getTransactionReceipt({ hash: swap!.hash });
    expect(settled.status).toBe("success");
    expect(await balance()).toBeGreaterThan(before);
    // The builder key never reached the browser.
    expect(await page.content()).not.toContain(manifest.demoWorkspace!.keys.all);
    await page.close();
  }, 300_000);

  it("refuses unsigned or forged deliveries, and takes a repeated one once", async () => {
    const before = example.settlements.all();
    const post = (body: string, signature?: string) =>
      fetch(`${example.url}/webhooks/junction`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature ? { "junction-signature": signature } : {}),
        },
        body,
      });
    const t = Math.floor(Date.now() / 1000);
    const event = {
      id: "evt_e2e_repeat",
      type: "settlement.confirming",
      createdAt: new Date().toISOString(),
      workspace: manifest.demoWorkspace!.workspaceId,
      quoteId: `0x${"ab".repeat(32)}`,
      data: {
        quoteId: `0x${"ab".repeat(32)}`,
        hash: `0x${"cd".repeat(32)}`,
        amountOut: "1",
        status: "confirming",
      },
    };
    const body = JSON.stringify(event);
    const sign = (secret: string) =>
      `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
    expect(await (await post(body)).json()).toEqual({
      error: { code: "BAD_SIGNATURE", reason: "missing-header" },
    });
    const forged = await post(body, sign("whsec_guessed"));
    expect([forged.status, await forged.json()]).toEqual([
      400,
      { error: { code: "BAD_SIGNATURE", reason: "no-matching-signature" } },
    ]);
    expect(example.settlements.all()).toEqual(before);
    expect(await (await post(body, sign(webhookSecret))).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await (await post(body, sign(webhookSecret))).json()).toEqual({ received: true, duplicate: true });
    expect(example.settlements.get(event.quoteId)?.events).toHaveLength(1);
  });
});
