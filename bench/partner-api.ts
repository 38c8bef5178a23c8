import type { OpenAPIHono } from "@hono/zod-openapi";
import { type Address, zeroAddress } from "viem";
import { createPartnerApp } from "../src/api/partner-app.ts";
import { partnerKeys } from "../src/auth/partner-keys.ts";
import { createChainClient } from "../src/chain/create-chain-client.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { amountForUsd } from "../src/devnet/universe.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { createAdmission } from "../src/quote/admission.ts";
import { createQuoter } from "../src/quote/create-quoter.ts";
import { createFixtures } from "../src/simulation/fixtures.ts";
import { createTransferFeeMeter } from "../src/simulation/transfer-fee.ts";
import { createStore, type Store } from "../src/store/create-store.ts";
import { machineLine, table } from "./machine.ts";

/** Timed requests per series, after untimed warm-ups (the JIT, each token's storage slots found once). */
const REQUESTS = 30;
const WARM_UP = 2;
const QUOTE_USD = 1_000n;
/** The funded account that receives outputs (a quote with `recipient` never sends anything). */
const RECIPIENT_INDEX = 7;

type Series = { label: string; path: string; query: Record<string, string> };

/**
 * `npm run bench -- partners`: the partner API (`{partner_url}/tokens`, `/quote`) as a partner meets it,
 * in-process with `app.request` on the devnet with the service's own deps and an in-memory PGlite store:
 * p50/p90/max per series over sequential requests. A quote with `recipient` includes building the
 * transaction and running it through the executor at the quote block, so the difference between the two
 * quote rows is the price of that proof. Each series has its own key, so no request meets the per-key rate.
 */
export async function benchPartnerApi(devnet: Devnet): Promise<string[]> {
  const progress = (line: string) => process.stderr.write(`[bench] partners: ${line}\n`);
  const store = await createStore({ dataDir: null });
  try {
    const { app, pools } = await partnerApp(devnet, store);
    const { manifest } = devnet;
    const token = (symbol: string) =>
      symbol === "ETH" ? zeroAddress : manifest.tokens.find((t) => t.symbol === symbol)!.address;
    const amount = (symbol: string) => amountForUsd(symbol === "ETH" ? "WETH" : symbol, QUOTE_USD).toString();
    const recipient = manifest.accounts[RECIPIENT_INDEX]!.address as Address;
    const quote = (tokenIn: string, tokenOut: string, withRecipient: boolean): Series => ({
      label: `/quote ${tokenIn}→${tokenOut}${withRecipient ? " with recipient (tx run at the block)" : ""}`,
      path: "/quote",
      query: {
        in: token(tokenIn),
        out: token(tokenOut),
        amount: amount(tokenIn),
        ...(withRecipient ? { recipient } : {}),
      },
    });
    const series: Series[] = [
      { label: "/tokens, a starter token", path: "/tokens", query: { address: token("USDC") } },
      { label: "/tokens, native ETH", path: "/tokens", query: { address: zeroAddress } },
      quote("WETH", "USDC", false),
      quote("WETH", "USDC", true),
      quote("ETH", "USDC", true),
      quote("LINK", "DAI", false),
      quote("LINK", "DAI", true),
    ];
    const rows: string[][] = [];
    for (const entry of series) {
      progress(entry.label);
      const key = await partnerKeys.issue(store.db, { name: entry.label, scopes: ["swap"] });
      const call = () =>
        Promise.resolve(
          app.request(`${entry.path}?${new URLSearchParams(entry.query)}`, {
            headers: { authorization: `Bearer ${key.secret}` },
          }),
        );
      let first = "";
      for (let i = 0; i < WARM_UP; i++) {
        const response = await call();
        const body = (await response.json()) as { ok?: boolean; error?: string };
        if (i === 0) first = `${response.status}${body.ok === false ? ` ok:false ${body.error}` : ""}`;
      }
      const times: number[] = [];
      let answered = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        const response = await call();
        await response.arrayBuffer();
        times.push(performance.now() - started);
        if (response.status === 200) answered++;
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
      rows.push([entry.label, String(REQUESTS), String(answered), at(0.5), at(0.9), at(1), first]);
    }
    return [
      "## Partner API",
      "",
      machineLine(
        `devnet seed ${manifest.seed}, ${devnet.boot.kind} boot, ${pools} indexed pools; in-process requests (\`app.request\`) on an in-memory PGlite store`,
      ),
      "",
      `Sequential requests with a swap-permission partner key (one key per series), ${WARM_UP} untimed warm-up requests per series, $${QUOTE_USD} inputs at the universe's reference prices. Times include the bearer-key lookup, the per-key rate spend and reading the body.`,
      "",
      ...table(["Series", "Requests", "200", "p50 (ms)", "p90 (ms)", "max (ms)", "First answer"], rows),
    ];
  } finally {
    await store.close();
  }
}

/** The partner app with the deps `startService` gives it, on the devnet and `store`. */
async function partnerApp(devnet: Devnet, store: Store): Promise<{ app: OpenAPIHono; pools: number }> {
  const { manifest } = devnet;
  const client = createChainClient({ url: devnet.rpcUrl, kind: "private" });
  const index = createPoolIndex({
    client,
    contracts: manifest.contracts,
    fromBlock: BigInt(manifest.deploymentBlock),
  });
  await index.sync();
  const fixtures = createFixtures(client);
  const transferFees = createTransferFeeMeter(client);
  const app = createPartnerApp({
    latestBlock: () => client.getBlockNumber(),
    logError: (error) => {
      throw error;
    },
    partner: {
      db: store.db,
      client,
      deployment: manifest,
      index,
      quote: createQuoter({ client, index, contracts: manifest.contracts, fixtures }),
      fixtures,
      transferFees,
      admission: createAdmission({ perMinute: 10_000 }),
      now: Date.now,
    },
  });
  return { app, pools: index.pools().length };
}
