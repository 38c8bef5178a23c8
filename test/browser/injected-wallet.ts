import type { Page } from "playwright-core";
import { createWalletClient, type Hex, http, type TransactionRequest } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { junctionChain } from "../../src/chain/chain.ts";

/** What the page asked the wallet to sign and send, as the wallet received it. */
export type SentTransaction = Pick<
  TransactionRequest,
  "to" | "data" | "value" | "gas" | "maxFeePerGas" | "maxPriorityFeePerGas" | "gasPrice"
> & { hash: Hex; type: string | undefined };

/**
 * An EIP-1193 wallet injected as `window.ethereum` into every page of `page`, backed by a devnet account
 * held here in the test process (as a browser extension holds it outside the page): it shares its
 * account, signs messages (`personal_sign`), signs and sends transactions with exactly the fields the page
 * asked for (recorded in `sent`), and forwards every other request to the devnet node. It approves every
 * request, as a user clicking "confirm" would.
 */
export async function injectWallet(page: Page, options: { privateKey: Hex; rpcUrl: string }) {
  const account = privateKeyToAccount(options.privateKey);
  const chain = junctionChain(options.rpcUrl);
  const signer = createWalletClient({ account, chain, transport: http(options.rpcUrl) });
  const sent: SentTransaction[] = [];
  let rpcId = 0;

  const forward = async (method: string, params: unknown) => {
    const response = await fetch(options.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params: params ?? [] }),
    });
    const json = (await response.json()) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (json.error) throw Object.assign(new Error(json.error.message), json.error);
    return json.result;
  };

  const handle = async (method: string, params: unknown[] | undefined): Promise<unknown> => {
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address];
      case "wallet_switchEthereumChain":
      case "wallet_addEthereumChain":
        return null;
      case "personal_sign": {
        const [data] = params as [Hex, string];
        return account.signMessage({ message: { raw: data } });
      }
      case "eth_sendTransaction": {
        const [tx] = params as [Record<string, Hex | undefined>];
        const big = (value: Hex | undefined) => (value === undefined ? undefined : BigInt(value));
        const fields = {
          to: tx.to as Hex,
          data: tx.data ?? "0x",
          value: big(tx.value) ?? 0n,
          gas: big(tx.gas),
          maxFeePerGas: big(tx.maxFeePerGas),
          maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas),
          gasPrice: big(tx.gasPrice),
        };
        const hash = await signer.sendTransaction({
          account,
          chain,
          to: fields.to,
          data: fields.data,
          value: fields.value,
          ...(fields.gas === undefined ? {} : { gas: fields.gas }),
          ...(fields.gasPrice !== undefined
            ? { gasPrice: fields.gasPrice }
            : fields.maxFeePerGas !== undefined
              ? { maxFeePerGas: fields.maxFeePerGas, maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? 0n }
              : {}),
        } as never);
        sent.push({ ...fields, hash, type: tx.type });
        return hash;
      }
      default:
        return forward(method, params);
    }
  };

  await page.exposeBinding(
    "__junctionWallet",
    async (_source, method: string, params: unknown[] | undefined) => {
      try {
        return { result: await handle(method, params) };
      } catch (error) {
        const e = error as { code?: number; message?: string; data?: unknown };
        return { error: { code: e.code ?? -32603, message: e.message ?? String(error), data: e.data } };
      }
    },
  );
  await page.addInitScript(() => {
    const call = (
      globalThis as unknown as {
        __junctionWallet: (
          m: string,
          p: unknown,
        ) => Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>;
      }
    ).__junctionWallet;
    (globalThis as unknown as { ethereum: unknown }).ethereum = {
      isJunctionTestWallet: true,
      request: async ({ method, params }: { method: string; params?: unknown }) => {
        const answer = await call(method, params);
        if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
        return answer.result;
      },
      on: () => {},
      removeListener: () => {},
    };
  });
  return { address: account.address, sent };
}
