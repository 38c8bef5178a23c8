import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registryTransaction } from "../../src/builders/registry-transactions.ts";
import { CHAIN_ID, junctionChain } from "../../src/chain/chain.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { signatureValid } from "../../src/events/webhook-signature.ts";
import { launchChromium, screenshot } from "../browser/chromium.ts";
import { injectWallet } from "../browser/injected-wallet.ts";
import { rawJsonPost } from "./raw-http.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * The developer portal in headless Chromium against `junction start`, with an injected wallet backed by a
 * devnet account: sign in with Ethereum, create a workspace, activate it by signing the registration (the
 * status turns active by itself), create a key shown once, revoke it; add a webhook endpoint whose secret,
 * shown once, verifies the deliveries the service sends; a wallet that did not register a code cannot
 * activate a workspace for it; and the portal API refuses forged or foreign requests.
 */
let service: SpawnedService;
let manifest: Manifest;
let browser: Browser;
const privateKey = (index: number) => manifest.accounts[index]!.privateKey as Hex;
const address = (index: number) => manifest.accounts[index]!.address;

beforeAll(async () => {
  [service, browser] = await Promise.all([spawnService(), launchChromium()]);
  manifest = service.manifest();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  service?.kill();
});

async function portalPage(
  account: number,
): Promise<{ page: Page; wallet: Awaited<ReturnType<typeof injectWallet>> }> {
  const page = await browser.newPage();
  const wallet = await injectWallet(page, { privateKey: privateKey(account), rpcUrl: service.rpcUrl });
  await page.goto(`${service.baseUrl}/portal`);
  await page.getByTestId("sign-in").click();
  await expect
    .poll(() => page.getByTestId("signed-in-as").textContent(), { timeout: 30_000 })
    .toBe(address(account).toLowerCase());
  return { page, wallet };
}

async function createWorkspace(page: Page, name: string, code: string) {
  await page.getByTestId("workspace-name").fill(name);
  await page.getByTestId("workspace-code").fill(code);
  await page.getByTestId("create-workspace").click();
  await page.getByTestId("workspace-panel").getByText(`(${code})`).waitFor();
}

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();

describe("developer portal in Chromium", () => {
  it("signs in, creates a workspace, activates it by signing the registration, creates a key once and revokes it", async () => {
    const { page, wallet } = await portalPage(2);
    await createWorkspace(page, "Acme", "acme-portal");
    expect(await text(page, "activation-status")).toBe("not activated");

    // Before activation, keys with quote or swap scope are refused (all four scopes are preselected).
    await page.getByTestId("create-key").click();
    await expect.poll(() => text(page, "key-error")).toMatch(/activated on chain first/);

    await page.getByTestId("builder-fee").fill("12");
    await page.getByTestId("activate").click();
    await expect.poll(() => text(page, "activation-status"), { timeout: 60_000 }).toBe("active");
    await screenshot(page, "portal-activated");

    // The wallet signed the registry's register transaction with the fee fields of the final simulation.
    expect(wallet.sent).toHaveLength(1);
    const [registration] = wallet.sent;
    expect(registration!.to?.toLowerCase()).toBe(manifest.contracts.builderRegistry.toLowerCase());
    const reader = createPublicClient({
      chain: junctionChain(service.rpcUrl),
      transport: http(service.rpcUrl),
    });
    const mined = await reader.getTransaction({ hash: registration!.hash });
    expect(mined.from.toLowerCase()).toBe(address(2).toLowerCase());
    expect(mined.maxFeePerGas).toBe(registration!.maxFeePerGas);
    expect(mined.maxPriorityFeePerGas).toBe(registration!.maxPriorityFeePerGas);
    // On-chain profile as the portal shows it: this wallet owns the code, the fee chosen in the form.
    const profile = page.getByTestId("profile");
    await expect.poll(() => profile.textContent()).toContain(address(2).toLowerCase());
    expect(await profile.textContent()).toContain("12 bps");

    await page.getByTestId("create-key").click();
    const secret = (await page.getByTestId("new-key-secret").textContent())!;
    expect(secret).toMatch(/^jct_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    await screenshot(page, "portal-key-created");
    const usage = (key: string) =>
      fetch(`${service.baseUrl}/api/v2/builders/usage`, { headers: { "x-api-key": key } }).then(
        (r) => r.status,
      );
    expect(await usage(secret)).toBe(200);

    // The secret is shown once: a reload (or any portal read) never carries it again.
    await page.reload();
    const prefix = secret.split("_").slice(0, 2).join("_");
    const row = page.getByTestId(`key-${prefix}`);
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await row.getByTestId("revoke").click();
    await expect.poll(() => row.getByTestId("key-status").textContent()).toBe("revoked");
    expect(await usage(secret)).toBe(401);

    await page.getByTestId("load-history").click();
    await page.getByText("No finalized settlement yet.").waitFor({ timeout: 30_000 });
    await screenshot(page, "portal-revoked");
    await page.close();
  });

  it("adds a webhook endpoint, shows its secret once, and logs the signed deliveries the service sends it", async () => {
    // A receiver on this machine: the devnet allows private addresses and plain http.
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const receiver: Server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/junction/hooks`;
    try {
      const { page } = await portalPage(9);
      await createWorkspace(page, "Hooks", "hooks-portal");
      await page.getByText("No webhook endpoint yet").waitFor();
      await page.getByTestId("webhook-url-input").fill(url);
      await page.getByTestId("webhook-event-settlement.reorged").uncheck();
      await page.getByTestId("webhook-add").click();
      const secret = (await page.getByTestId("new-webhook-secret-value").textContent())!;
      expect(secret).toMatch(/^whsec_[0-9A-Za-z_-]{43}$/);
      const row = page.locator('[data-testid^="webhook-we_"]');
      await expect.poll(() => row.getByTestId("webhook-url").textContent()).toBe(url);
      expect(await row.textContent()).toContain("settlement.confirming, settlement.finalized");
      await screenshot(page, "portal-webhook-added");

      // The secret is shown once: a reload lists the endpoint without it.
      await page.reload();
      await row.waitFor();
      expect(await page.content()).not.toContain(secret);
      const endpointId = (await row.getAttribute("data-testid"))!.slice("webhook-".length);

      // "Send test event": the running service delivers it, signed with that secret, and the log says so.
      await row.getByTestId("webhook-test").click();
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
      const [test] = received;
      expect(test!.headers["junction-event-type"]).toBe("webhook.test");
      expect(signatureValid(String(test!.headers["junction-signature"]), test!.body, secret)).toBe(true);
      expect(JSON.parse(test!.body)).toMatchObject({ type: "webhook.test", data: { endpointId } });
      const delivery = page.locator('tr[data-testid^="delivery-"]');
      await expect
        .poll(() => delivery.first().getByTestId("delivery-status").textContent(), { timeout: 30_000 })
        .toBe("delivered");
      expect(await delivery.first().getByTestId("delivery-attempts").textContent()).toBe("1");
      expect(await delivery.first().getByTestId("delivery-last-status").textContent()).toBe("204");

      // Redeliver sends the same event again; the operator CLI sees the endpoint and queues a test too.
      await delivery.first().getByTestId("redeliver").click();
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
      expect(received[1]!.headers["junction-event-id"]).toBe(test!.headers["junction-event-id"]);
      const listed = await service.cli(["webhooks", "list", "--workspace", "hooks-portal", "--json"]);
      expect(JSON.parse(listed.stdout).endpoints).toEqual([expect.objectContaining({ id: endpointId, url })]);
      expect(listed.stdout).not.toContain(secret);
      const queued = await service.cli([
        "webhooks",
        "test",
        "--workspace",
        "hooks-portal",
        "--endpoint",
        endpointId,
        "--json",
      ]);
      expect(queued.code, queued.stderr).toBe(0);
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(3);
      expect(received[2]!.headers["junction-event-id"]).toBe(JSON.parse(queued.stdout).eventId);
      await screenshot(page, "portal-webhook-deliveries");

      // Rotating shows a new secret once; removing leaves no endpoint.
      await row.getByTestId("webhook-rotate").click();
      const rotated = (await page.getByTestId("new-webhook-secret-value").textContent())!;
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await row.getByTestId("webhook-remove").click();
      await page.getByText("No webhook endpoint yet").waitFor();
      await page.close();
    } finally {
      receiver.close();
    }
  });

  it("a wallet that did not register a code cannot activate a workspace for it", async () => {
    const { page } = await portalPage(3);
    await createWorkspace(page, "Taken", "taken-portal");
    // Another wallet (account 4) registers the code first, straight on chain.
    const tx = registryTransaction(manifest.contracts.builderRegistry, {
      action: "register",
      code: "taken-portal",
      recipient: address(4),
      builderFeeBps: 5,
    });
    const other = createWalletClient({
      account: privateKeyToAccount(privateKey(4)),
      chain: junctionChain(service.rpcUrl),
      transport: http(service.rpcUrl),
    });
    const hash = await other.sendTransaction({ to: tx.to, data: tx.data });
    const reader = createPublicClient({
      chain: junctionChain(service.rpcUrl),
      transport: http(service.rpcUrl),
    });
    expect((await reader.waitForTransactionReceipt({ hash, pollingInterval: 100 })).status).toBe("success");

    await page.reload();
    await expect
      .poll(() => text(page, "activation-status"), { timeout: 30_000 })
      .toBe("registered by another wallet");
    expect(await text(page, "owner-mismatch")).toContain(address(4).toLowerCase());
    expect(await page.getByTestId("activate").count()).toBe(0);
    await page.getByTestId("create-key").click();
    await expect.poll(() => text(page, "key-error")).toMatch(/activated on chain first/);
    await screenshot(page, "portal-owner-mismatch");
    await page.close();
  });
});

describe("portal API", () => {
  const host = () => new URL(service.baseUrl).host;
  const call = async (
    method: string,
    path: string,
    options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(`${service.baseUrl}/portal/api${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const raw = await response.text();
    expect(raw).not.toMatch(/\bat .+\.(ts|js):\d+/);
    return { status: response.status, headers: response.headers, body: raw ? JSON.parse(raw) : undefined };
  };
  const message = async (
    account: number,
    overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
  ) => {
    const { nonce } = (await call("GET", "/nonce")).body as { nonce: string };
    return createSiweMessage({
      domain: host(),
      address: address(account),
      uri: service.baseUrl,
      version: "1",
      chainId: CHAIN_ID,
      nonce,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 600_000),
      ...overrides,
    });
  };
  const sign = (account: number, text: string) =>
    privateKeyToAccount(privateKey(account)).signMessage({ message: text });
  const signIn = async (account: number) => {
    const text = await message(account);
    const answer = await call("POST", "/session", {
      body: { message: text, signature: await sign(account, text) },
    });
    expect(answer.status).toBe(200);
    const cookie = answer.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    return { cookie: cookie.split(";")[0]!, text };
  };

  it("refuses sign-ins that are replayed, for another site or chain, out of date or by another wallet, saying why", async () => {
    const { text } = await signIn(5);
    const replay = await call("POST", "/session", {
      body: { message: text, signature: await sign(5, text) },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toMatchObject({
      code: "UNAUTHORIZED",
      message: expect.stringMatching(/nonce was already used/),
    });
    // Each refusal says why: the site, the chain, the nonce, the lifetime, each on its own.
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    type Overrides = Partial<Parameters<typeof createSiweMessage>[0]>;
    const same = (text: string) => text;
    const cases: [string, Overrides, (text: string) => string, RegExp][] = [
      ["another domain", { domain: "evil.example" }, same, /another site \(evil\.example\)/],
      ["another URI", { uri: "http://evil.example" }, same, /URI is not on this site/],
      ["another chain", { chainId: 1 }, same, /for chain 1; sign in on chain 4663/],
      ["no chain ID", {}, (text) => text.replace(/^Chain ID: .*\n/m, ""), /no chain ID/],
      ["no nonce", {}, (text) => text.replace(/^Nonce: .*\n/m, ""), /no nonce/],
      ["a forged nonce", {}, (text) => text.replace(/^Nonce: .*$/m, "Nonce: 0123456789abcdef"), /not issued/],
      ["expired", { issuedAt: minutesAgo(5), expirationTime: minutesAgo(1) }, same, /expired at/],
      ["not yet valid", { notBefore: new Date(Date.now() + 300_000) }, same, /not valid before/],
      ["an old issuedAt", { issuedAt: minutesAgo(60) }, same, /issuedAt/],
    ];
    for (const [what, overrides, edit, why] of cases) {
      const forged = edit(await message(5, overrides));
      const answer = await call("POST", "/session", {
        body: { message: forged, signature: await sign(5, forged) },
      });
      expect(answer.status, what).toBe(401);
      expect(answer.body.error.message, what).toMatch(why);
      expect(answer.body.error.message, what).not.toMatch(/signature/);
    }
    const stolen = await message(5);
    const wrongSigner = await call("POST", "/session", {
      body: { message: stolen, signature: await sign(6, stolen) },
    });
    expect(wrongSigner.status).toBe(401);
    expect(wrongSigner.body.error.message).toMatch(/signature/);
    expect((await call("POST", "/session", { body: { message: "x", signature: "nothex" } })).status).toBe(
      400,
    );
  });

  const rawPost = (path: string, payload: unknown, headers: Record<string, string>) =>
    rawJsonPost(`${service.baseUrl}/portal/api${path}`, payload, headers);

  it("binds sign-in to the configured origin, whatever the request's Host and Origin say", async () => {
    // A phishing site has the victim sign a message for its own domain, then posts it with a Host (and an
    // Origin) that match the message.
    for (const headers of <Record<string, string>[]>[
      { host: "evil.example", origin: "http://evil.example" },
      { host: "evil.example" },
      { host: "evil.example", origin: service.baseUrl },
      { origin: "http://evil.example" },
    ]) {
      const phished = await message(8, { domain: "evil.example", uri: "http://evil.example" });
      const answer = await rawPost(
        "/session",
        { message: phished, signature: await sign(8, phished) },
        headers,
      );
      expect([401, 403], JSON.stringify(headers)).toContain(answer.status);
      expect(answer.setCookie, JSON.stringify(headers)).toBeUndefined();
      if (answer.status === 401) expect(answer.body.error!.message).toMatch(/another site \(evil\.example\)/);
      else expect(answer.body.error!.message).toContain(service.baseUrl);
    }
    // A message for this site signs in whatever Host says, but only from this origin (or none).
    const own = await message(8);
    const fromElsewhere = await rawPost(
      "/session",
      { message: own, signature: await sign(8, own) },
      { host: "evil.example", origin: "http://evil.example" },
    );
    expect(fromElsewhere.status).toBe(403);
    expect(fromElsewhere.setCookie).toBeUndefined();
    const fromHere = await rawPost(
      "/session",
      { message: own, signature: await sign(8, own) },
      { host: "evil.example", origin: service.baseUrl },
    );
    expect(fromHere.status).toBe(200);
    expect(fromHere.setCookie?.[0]).toMatch(/^junction_portal=/);
  });

  it("acts only for the signed-in wallet, only on its own workspaces, only from its own origin", async () => {
    expect((await call("GET", "/workspaces")).body).toEqual({
      error: { code: "UNAUTHORIZED", message: "sign in with your wallet first" },
    });
    const owner = await signIn(6);
    const stranger = await signIn(7);
    const created = await call("POST", "/workspaces", {
      cookie: owner.cookie,
      body: { name: "Mine", code: "mine-api" },
    });
    expect(created.status).toBe(201);
    const id = created.body.workspace.id as string;
    expect(created.body.workspace).toMatchObject({
      code: "mine-api",
      owner: address(6).toLowerCase(),
      activated: false,
    });
    const key = await call("POST", `/workspaces/${id}/keys`, {
      cookie: owner.cookie,
      body: { name: "reader", scopes: ["tokens"], expiresInDays: 30 },
    });
    expect(key.status).toBe(201);
    expect(key.body.key.secret).toMatch(/^jct_/);
    const listed = await call("GET", `/workspaces/${id}/keys`, { cookie: owner.cookie });
    expect(JSON.stringify(listed.body)).not.toContain(key.body.key.secret);

    for (const [method, path] of [
      ["GET", `/workspaces/${id}`],
      ["GET", `/workspaces/${id}/keys`],
      ["GET", `/workspaces/${id}/usage`],
      ["GET", `/workspaces/${id}/history`],
      ["DELETE", `/workspaces/${id}/keys/${key.body.key.id}`],
    ] as const) {
      const answer = await call(method, path, {
        cookie: stranger.cookie,
        headers: { "content-type": "application/json" },
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect((await call("GET", "/workspaces", { cookie: stranger.cookie })).body).toEqual({ workspaces: [] });

    const taken = await call("POST", "/workspaces", {
      cookie: stranger.cookie,
      body: { name: "Copy", code: "mine-api" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("CODE_TAKEN");
    const invalid = await call("POST", "/workspaces", {
      cookie: stranger.cookie,
      body: { name: "x", code: "no spaces", extra: 1 },
    });
    expect(invalid.status).toBe(400);
    const crossSite = await call("POST", "/workspaces", {
      cookie: owner.cookie,
      body: { name: "csrf", code: "csrf-code" },
      headers: { origin: "http://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const notJson = await fetch(`${service.baseUrl}/portal/api/workspaces`, {
      method: "POST",
      headers: { cookie: owner.cookie, "content-type": "text/plain" },
      body: JSON.stringify({ name: "form", code: "form-code" }),
    });
    expect(notJson.status).toBe(400);
    expect((await call("GET", "/workspaces", { cookie: owner.cookie })).body.workspaces).toHaveLength(1);

    // Activation is prepared only from the wallet's own simulation; a fee above the cap never reaches a wallet.
    const aboveCap = await call("POST", `/workspaces/${id}/activation`, {
      cookie: owner.cookie,
      body: { recipient: address(6), builderFeeBps: 51 },
    });
    expect(aboveCap.status).toBe(400);
    const prepared = await call("POST", `/workspaces/${id}/activation`, {
      cookie: owner.cookie,
      body: { recipient: address(6), builderFeeBps: 7 },
    });
    expect(prepared.status).toBe(200);
    expect(prepared.body.transaction.from.toLowerCase()).toBe(address(6).toLowerCase());
    expect(prepared.body.transaction).toMatchObject({
      to: manifest.contracts.builderRegistry,
      value: "0",
      chainId: CHAIN_ID,
    });

    const out = await call("DELETE", "/session", {
      cookie: owner.cookie,
      headers: { "content-type": "application/json" },
    });
    expect(out.status).toBe(204);
    expect((await call("GET", "/workspaces", { cookie: owner.cookie })).status).toBe(401);
  });
});
