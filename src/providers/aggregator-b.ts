import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  type Hex,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from "viem";
import { z } from "zod";
import { fetchProviderJson, ProviderHttpError, sameAddress, withSlash } from "./fetch-json.ts";
import { failureOf, type ProviderFailure, type ProviderQuote, type QuoteProvider } from "./provider.ts";

/** Native ETH as the firm-quote API writes it. */
const NATIVE = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";
/** The settler registry feature of taker-submitted settlement (0x). */
export const SETTLER_FEATURE = 2n;

/** The allowance holder's entry point and the settler's, as the firm quote's transaction calls them (0x). */
const ALLOWANCE_HOLDER_ABI = parseAbi([
  "function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes)",
]);
const SETTLER_ABI = parseAbi([
  "struct AllowedSlippage { address recipient; address buyToken; uint256 minAmountOut; }",
  "function execute(AllowedSlippage slippage, bytes[] actions, bytes32 zid) payable returns (bool)",
]);
const SETTLER_REGISTRY_ABI = parseAbi(["function ownerOf(uint256 feature) view returns (address)"]);

/**
 * The devnet settler's one action, `(sellToken, sellAmount, hops, deadline)`: when the first action decodes
 * so, its deadline is the firm quote's expiry; a settler with other actions gives none.
 */
export const SETTLER_ACTION = [
  { type: "address" },
  { type: "uint256" },
  {
    type: "tuple[]",
    components: [
      { name: "kind", type: "uint8" },
      { name: "tokenOut", type: "address" },
      { name: "fee", type: "uint24" },
    ],
  },
  { type: "uint256" },
] as const;

const UINT = z.string().regex(/^[0-9]{1,78}$/);
const QuoteSchema = z.union([
  z.object({ liquidityAvailable: z.literal(false) }),
  z.object({
    liquidityAvailable: z.literal(true),
    buyAmount: UINT,
    minBuyAmount: UINT,
    sellAmount: UINT,
    buyToken: z.string(),
    sellToken: z.string(),
    issues: z.object({ allowance: z.object({ spender: z.string() }).nullable().optional() }).optional(),
    transaction: z.object({ to: z.string(), data: z.string().regex(/^0x([0-9a-fA-F]{2})+$/), value: UINT }),
  }),
]);

export type AggregatorBOptions = {
  baseUrl: string;
  /** Sent as `0x-api-key`; never logged or returned. */
  apiKey?: string;
  chainId: number;
  /** The fixed allowance holder every firm quote must target (and the spender to approve). */
  allowanceHolder: Address;
  /** The on-chain registry naming the active settler. */
  settlerRegistry: Address;
  client: PublicClient;
};

/**
 * aggregator-b: a firm-quote API with 0x's v2 allowance-holder shape (`GET swap/allowance-holder/quote`),
 * paying the request's recipient (the API's `recipient`; the taker when none is named).
 * Before its quote may become a candidate (docs/rules.md, comparison rule 2) the transaction must target the
 * fixed allowance holder, its decoded `exec` must bind exactly our input token and amount and call, as
 * operator and target, the settler the registry names active at the quote block, and the settler's
 * `execute` must pay that recipient in our output token with a minimum not above the quoted amount. A
 * mismatch is listed as `provider-binding-mismatch` and never simulated.
 */
export function createAggregatorB(options: AggregatorBOptions): QuoteProvider {
  const headers: Record<string, string> = {
    "0x-version": "v2",
    ...(options.apiKey ? { "0x-api-key": options.apiKey } : {}),
  };
  const provider = "aggregator-b" as const;
  const variant = "firm";
  return {
    id: provider,
    variants: [variant],
    quote: async (request) => {
      if (request.variants && !request.variants.includes(variant)) return [];
      try {
        return [await firmQuote(request)];
      } catch (error) {
        if (error instanceof ProviderHttpError) return [failureOf(provider, variant, error.failure)];
        throw error;
      }
    },
  };

  async function firmQuote(
    request: Parameters<QuoteProvider["quote"]>[0],
  ): Promise<ProviderQuote | ProviderFailure> {
    const token = (address: Address) => (address === zeroAddress ? NATIVE : address);
    const url = new URL("swap/allowance-holder/quote", withSlash(options.baseUrl));
    for (const [name, value] of Object.entries({
      chainId: String(options.chainId),
      sellToken: token(request.tokenIn),
      buyToken: token(request.tokenOut),
      sellAmount: request.amountIn.toString(),
      taker: request.taker,
      ...(request.recipient ? { recipient: request.recipient } : {}),
    }))
      url.searchParams.set(name, value);
    const [answer, activeSettler] = await Promise.all([
      fetchProviderJson(url, { headers }, request.signal),
      options.client
        .readContract({
          address: options.settlerRegistry,
          abi: SETTLER_REGISTRY_ABI,
          functionName: "ownerOf",
          args: [SETTLER_FEATURE],
          blockNumber: request.blockNumber,
        })
        .then(
          (settler) => ({ settler }),
          (cause: unknown) => ({ cause }),
        ),
    ]);
    if (answer.status === 400 || answer.status === 404) return { provider, variant, reason: "no-route" };
    const parsed = QuoteSchema.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) return { provider, variant, reason: "invalid-response" };
    const quote = parsed.data;
    if (!quote.liquidityAvailable) return { provider, variant, reason: "no-route" };
    // Without the registry's answer nothing can be validated: the provider is unavailable, not mismatched.
    if (!("settler" in activeSettler)) return { provider, variant, reason: "unavailable" };
    const tx = {
      to: quote.transaction.to as Address,
      data: quote.transaction.data as Hex,
      value: BigInt(quote.transaction.value),
    };
    const amountOut = BigInt(quote.buyAmount);
    const binding = checkBinding(quote, tx, activeSettler.settler, request);
    return {
      provider,
      variant,
      amountOut,
      tx,
      allowanceTarget: options.allowanceHolder,
      ...(request.recipient ? { recipient: request.recipient } : {}),
      ...(binding.expiresAt === undefined ? {} : { expiresAt: binding.expiresAt }),
      ...(binding.ok ? {} : { bindingMismatch: true as const }),
    };
  }

  function checkBinding(
    quote: { buyAmount: string; minBuyAmount: string; issues?: { allowance?: { spender: string } | null } },
    tx: { to: Address; data: Hex; value: bigint },
    activeSettler: Address,
    request: Parameters<QuoteProvider["quote"]>[0],
  ): { ok: boolean; expiresAt?: bigint } {
    const sellToken = request.tokenIn === zeroAddress ? NATIVE : request.tokenIn;
    const buyToken = request.tokenOut === zeroAddress ? NATIVE : request.tokenOut;
    const spender = quote.issues?.allowance?.spender;
    if (
      !sameAddress(tx.to, options.allowanceHolder) ||
      (spender && !sameAddress(spender, options.allowanceHolder))
    )
      return { ok: false };
    if (tx.value !== (request.tokenIn === zeroAddress ? request.amountIn : 0n)) return { ok: false };
    const exec = decodeOr(() => decodeFunctionData({ abi: ALLOWANCE_HOLDER_ABI, data: tx.data }));
    if (exec?.functionName !== "exec") return { ok: false };
    const [operator, inputToken, amount, target, inner] = exec.args;
    if (
      !sameAddress(operator, activeSettler) ||
      !sameAddress(target, activeSettler) ||
      !sameAddress(inputToken, sellToken) ||
      amount !== request.amountIn
    )
      return { ok: false };
    const execute = decodeOr(() => decodeFunctionData({ abi: SETTLER_ABI, data: inner }));
    if (execute?.functionName !== "execute") return { ok: false };
    const [slippage, actions] = execute.args;
    const expiresAt = expiryOf(actions[0]);
    const ok =
      sameAddress(slippage.recipient, request.recipient ?? request.taker) &&
      sameAddress(slippage.buyToken, buyToken) &&
      slippage.minAmountOut <= BigInt(quote.buyAmount) &&
      BigInt(quote.minBuyAmount) <= BigInt(quote.buyAmount);
    return { ok, ...(expiresAt === undefined ? {} : { expiresAt }) };
  }
}

/** The firm quote's deadline, when its first action is the devnet settler's sale. */
function expiryOf(action: Hex | undefined): bigint | undefined {
  if (!action) return undefined;
  return decodeOr(() => decodeAbiParameters(SETTLER_ACTION, action)[3]);
}

/** A decode that may not fit: undefined instead of an exception (calldata is the provider's, not ours). */
function decodeOr<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}
