import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseAbi,
  parseEther,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { junctionChain } from "../../src/chain/chain.ts";
import type { Deployment } from "../../src/config/deployment.ts";
import { erc20Abi } from "../../src/contracts/abis/ERC20.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import type { SpawnedService } from "./spawn-service.ts";

/**
 * A builder's whole path on a service started from a `junction deploy` deployment file, as an operator and
 * an integrator walk it: CLI workspace, activation signed by the owner's wallet on the new registry (picked
 * up by the follower), a key, a builder quote for 1 WETH, swap preparation, wrap + approve + send from the
 * wallet, and receipt verification polled until `finalized`. Returns the key, the swap's hash and its quote.
 */
export async function builderSwapToFinality(input: {
  service: SpawnedService;
  deployment: Deployment;
  publicClient: Pick<PublicClient, "waitForTransactionReceipt">;
  wallet: WalletClient;
  tokenOut: Address;
  code: string;
  /** The deployment's service fee on this pair (the example deploy plans charge 20). */
  routeBps?: number;
  /** Called once the workspace exists, before anything settles (e.g. to add a webhook endpoint). */
  onWorkspace?: (workspace: { id: string }) => Promise<void>;
}): Promise<{ key: string; hash: Hex; quoteId: string }> {
  const { service, deployment, publicClient, wallet, code } = input;
  const weth = deployment.contracts.weth9;
  const api = async (method: "GET" | "POST", path: string, key?: string, body?: unknown, headers = {}) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { "x-api-key": key } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
    return { status: response.status, body: (await response.json()) as any };
  };
  const cli = async (args: string[]) => {
    const result = await service.cli([...args, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  const send = async (tx: { to: Hex; data: Hex; value?: bigint; gas?: bigint }) => {
    const hash = await wallet.sendTransaction({ account: wallet.account!, chain: wallet.chain, ...tx });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    return hash;
  };

  const owner = wallet.account!.address;
  const created = await cli(["workspace", "create", "--name", `Deployed ${code}`, "--code", code]);
  await input.onWorkspace?.(created.workspace);
  const activation = await cli([
    "workspace",
    "activate",
    "--code",
    code,
    "--owner",
    owner,
    "--recipient",
    owner,
    "--fee",
    "10",
  ]);
  expect(activation.transaction.to).toBe(deployment.contracts.builderRegistry);
  await send({ to: activation.transaction.to, data: activation.transaction.data });
  await expect
    .poll(
      async () =>
        (await cli(["workspace", "list"])).workspaces.find((w: { code: string }) => w.code === code)
          ?.activated,
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
  const { key } = await cli([
    "key",
    "create",
    "--workspace",
    code,
    "--name",
    "k",
    "--scopes",
    "quote,swap,receipts",
  ]);

  const builderQuote = await api(
    "GET",
    `/api/v2/builders/quote?tokenIn=${weth}&tokenOut=${input.tokenOut}&amountIn=${parseEther("1")}&payer=${owner}`,
    key.secret,
  );
  expect(builderQuote.status).toBe(200);
  expect(builderQuote.body.fees).toMatchObject({ routeBps: input.routeBps ?? 20, builderBps: 10 });
  const prepared = await api(
    "POST",
    "/api/v2/builders/swaps",
    key.secret,
    { quoteId: builderQuote.body.quoteId },
    { "idempotency-key": `${code}-1` },
  );
  expect(prepared.status).toBe(200);
  expect(prepared.body.tx.to).toBe(deployment.contracts.executor.toLowerCase());
  await send({
    to: weth,
    data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
    value: parseEther("1"),
  });
  await send({
    to: weth,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [deployment.contracts.executor, maxUint256],
    }),
  });
  const hash = await send({
    to: prepared.body.tx.to,
    data: prepared.body.tx.data,
    value: BigInt(prepared.body.tx.value),
    gas: BigInt(prepared.body.tx.gas),
  });
  await expect
    .poll(
      async () =>
        (
          await api("POST", "/api/v2/builders/receipts", key.secret, {
            quoteId: builderQuote.body.quoteId,
            hash,
          })
        ).body.status,
      { timeout: 30_000, interval: 500 },
    )
    .toBe("finalized");
  return { key: key.secret, hash, quoteId: builderQuote.body.quoteId };
}

/**
 * `builderSwapToFinality` for a service on a devnet's manifest: the owner's wallet is the manifest's test
 * account 3 on the devnet's own node (not the service's, which may stand behind a limiting proxy), swapping
 * 1 WETH for USDC at the manifest's default service fee.
 */
export function builderSwapOnDevnet(
  service: SpawnedService,
  manifest: Manifest,
  rpcUrl: string,
  code: string,
): ReturnType<typeof builderSwapToFinality> {
  const chain = junctionChain(rpcUrl);
  return builderSwapToFinality({
    service,
    deployment: manifest,
    publicClient: createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 100 }),
    wallet: createWalletClient({
      chain,
      transport: http(rpcUrl),
      account: privateKeyToAccount(manifest.accounts[3]!.privateKey as Hex),
    }),
    tokenOut: manifest.tokens.find((t) => t.symbol === "USDC")!.address as Address,
    code,
    routeBps: manifest.junction.feeSchedule.defaultRouteFeeBps,
  });
}
