import {
  prepareForSigning,
  SIGNING_MARGIN_SECONDS,
  type SigningTerms,
  secondsLeft,
  signAndSend,
  type UnsignedTransaction,
  WalletFlowError,
} from "@junction/sdk";
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { encodeFunctionData, erc20Abi, formatUnits, type Hex, parseUnits } from "viem";
import { connectWallet, errorText, type Wallet } from "../../web/shared/wallet.ts";

/**
 * The example swap page: pick tokens and an amount, see Junction's public comparison (every candidate, the
 * selected one, the fee disclosed), connect a wallet, approve and swap through the builder API (via this
 * app's backend, which holds the key) with the SDK's pre-sign wallet flow, and watch the settlement go from
 * confirming to finalized as Junction's webhooks tell the backend (the page asks its backend, never Junction).
 */
type Token = { address: string; symbol: string; decimals: number };
type Candidate = {
  id: string;
  provider: string;
  description: string;
  feeBps: number;
  amountOut: string;
  selected: boolean;
  execution: { status: string; amountOut: string | null; gasCostOut: string | null; reason?: string };
};
type Comparison = {
  amountOut: string;
  provider: string;
  /** The selected route's price impact against its marginal price at the quote block; null for aggregators. */
  priceImpactBps: number | null;
  fee: { bps: number; amount?: string };
  execution: { amountOut: string; gasPrice: string };
  comparison: Candidate[];
};
type Prepared = {
  quote: {
    quoteId: string;
    provider: string;
    priceImpactBps: number | null;
    warnings: string[];
    amountOut: string;
    minimumAmountOut: string;
    routeFee: string;
    builderFee: string;
    fees: { routeBps: number; builderBps: number };
  };
  prepared: {
    /** Unix seconds (server clock): the transaction reverts after it. */
    deadline: number;
    tx: UnsignedTransaction;
    approval: { token: string; spender: string; amount: string; required: boolean } | null;
  };
};

type Offer = Prepared & { skewMs: number };

/** What the backend's webhooks said of a swap (examples/swap-page/settlement-store.ts). */
type Settlement = {
  status: "confirming" | "finalized" | "reorged";
  hash: string;
  amountOut: string;
  routeFee: string;
  builderFee: string;
  eventId: string;
};

/** Where the settlement shown came from: Junction's push, or receipt polling when the backend has no secret. */
type Followed = {
  source: "webhook" | "receipts-fallback";
  settlement: Partial<Omit<Settlement, "status">> & { status: string };
};

async function backend<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json();
  if (!response.ok)
    throw new Error(`${json.error?.code ?? response.status}: ${json.error?.message ?? "failed"}`);
  return json as T;
}

function App() {
  const [tokens, setTokens] = useState<Token[]>([]);
  const [tokenIn, setTokenIn] = useState("");
  const [tokenOut, setTokenOut] = useState("");
  const [amount, setAmount] = useState("1");
  const [comparison, setComparison] = useState<Comparison>();
  const [wallet, setWallet] = useState<Wallet>();
  const [steps, setSteps] = useState<string[]>([]);
  const [followed, setFollowed] = useState<Followed>();
  /** The builder quote's net output: the settlement's amountOut is shown beside it. */
  const [quoted, setQuoted] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [offer, setOffer] = useState<Offer>();
  /** This page's clock, ticking each second while an offer is shown (its countdown). */
  const [clock, setClock] = useState(Date.now());
  useEffect(() => {
    if (!offer) return;
    const timer = setInterval(() => setClock(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [offer]);

  useEffect(() => {
    backend<{ tokens: Token[] }>("GET", "/api/tokens").then(
      ({ tokens }) => {
        setTokens(tokens);
        setTokenIn(tokens.find((t) => t.symbol === "WETH")?.address ?? tokens[0]?.address ?? "");
        setTokenOut(tokens.find((t) => t.symbol === "USDC")?.address ?? tokens[1]?.address ?? "");
      },
      (e) => setError(errorText(e)),
    );
  }, []);

  const token = (address: string) => tokens.find((t) => t.address === address);
  const rawAmount = () => parseUnits(amount, token(tokenIn)?.decimals ?? 18).toString();
  const show = (raw: string | null | undefined, address = tokenOut) =>
    raw == null
      ? "—"
      : `${formatUnits(BigInt(raw), token(address)?.decimals ?? 18)} ${token(address)?.symbol ?? ""}`;
  const step = (line: string) => setSteps((now) => [...now, line]);

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const compare = () =>
    run(async () => {
      const query = new URLSearchParams({ tokenIn, tokenOut, amountIn: rawAmount() });
      setComparison(await backend<Comparison>("GET", `/api/comparison?${query}`));
    });

  /** Rule 16 for every transaction: fresh fee fields, simulated again, exactly those fields signed. */
  const signAndWait = async (
    connected: Wallet,
    tx: UnsignedTransaction,
    terms: SigningTerms,
  ): Promise<Hex> => {
    const signable = await prepareForSigning(connected.reader, tx, terms);
    const hash = await signAndSend(connected.wallet, signable, terms.now);
    const mined = await connected.reader.waitForTransactionReceipt({ hash, pollingInterval: 500 });
    if (mined.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return hash;
  };

  /** A builder quote and its prepared swap, valid until `prepared.deadline` on the server's clock. */
  const fetchOffer = async (connected: Wallet): Promise<Offer> => {
    const sentAt = Date.now();
    const answer = await backend<Prepared & { serverTime: number }>("POST", "/api/swaps", {
      payer: connected.address,
      tokenIn,
      tokenOut,
      amountIn: rawAmount(),
      provider: comparison?.provider,
    });
    // How far this page's clock runs ahead of the server's (half the round trip is the best guess).
    const skewMs = (sentAt + Date.now()) / 2 - answer.serverTime;
    const { quote } = answer;
    setQuoted(quote.amountOut);
    for (const warning of quote.warnings) step(`warning: ${warning}`);
    step(
      `builder quote ${quote.quoteId.slice(0, 10)}… from ${quote.provider}: ${show(quote.amountOut)} after a ${quote.fees.routeBps} bps service fee (${show(quote.routeFee)}) and a ${quote.fees.builderBps} bps builder fee (${show(quote.builderFee)}); at least ${show(quote.minimumAmountOut)}; price impact ${quote.priceImpactBps ?? "—"} bps`,
    );
    return { quote, prepared: answer.prepared, skewMs };
  };

  const getQuote = () =>
    run(async () => {
      const connected = wallet ?? (await connectWallet());
      setWallet(connected);
      setSteps([]);
      setFollowed(undefined);
      setOffer(await fetchOffer(connected));
    });

  /** The offer ran out (or will before a wallet could confirm it): a new one replaces it. */
  const requote = (why: string) =>
    run(async () => {
      if (!wallet) return;
      step(why);
      setOffer(await fetchOffer(wallet));
    });

  const left = offer ? secondsLeft({ validUntil: offer.prepared.deadline }, clock - offer.skewMs) : undefined;
  useEffect(() => {
    if (left !== undefined && left <= SIGNING_MARGIN_SECONDS && !busy && !followed && !error)
      requote("the quote ran out before it was signed: quoted again");
  });

  const confirm = () =>
    run(async () => {
      if (!wallet || !offer) return;
      const { quote, prepared, skewMs } = offer;
      const serverNow = () => Date.now() - skewMs;
      if (prepared.approval?.required) {
        const approve: UnsignedTransaction = {
          from: wallet.address,
          to: prepared.approval.token,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: "approve",
            args: [prepared.approval.spender as Hex, BigInt(prepared.approval.amount)],
          }),
          value: "0",
          chainId: prepared.tx.chainId,
        };
        step(`approved: ${await signAndWait(wallet, approve, { now: serverNow })}`);
      }
      let hash: Hex;
      try {
        // The swap is refused before the wallet is asked when its deadline is (almost) past.
        hash = await signAndWait(wallet, prepared.tx, { deadline: prepared.deadline, now: serverNow });
      } catch (e) {
        if (e instanceof WalletFlowError && e.reason === "expired") {
          step("the quote ran out while the wallet was busy: quoted again, confirm the new one");
          setOffer(await fetchOffer(wallet));
          return;
        }
        throw e;
      }
      step(`swapped: ${hash}`);
      await followSettlement(quote.quoteId, hash);
    });

  /**
   * The settlement as the backend learned it from Junction's webhooks (`confirming`, then `finalized`);
   * only when the backend has no webhook secret does it poll receipts instead (the labelled fallback).
   */
  const followSettlement = async (quoteId: string, hash: Hex) => {
    for (;;) {
      const pushed = await backend<{ push: boolean; settlement: Settlement | null }>(
        "GET",
        `/api/settlements/${quoteId}`,
      );
      if (pushed.push) {
        if (pushed.settlement) setFollowed({ source: "webhook", settlement: pushed.settlement });
        if (pushed.settlement?.status === "finalized") return;
      } else {
        const verified = await backend<{ status: string; amountOut: string }>("POST", "/api/receipts", {
          quoteId,
          hash,
        });
        setFollowed({ source: "receipts-fallback", settlement: verified });
        if (verified.status === "finalized") return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };

  return (
    <main>
      <h1>Swap</h1>
      <p className="muted">An example integrator app on Junction: its backend holds the builder key.</p>
      <section>
        <div className="row">
          <TokenSelect id="token-in" label="From" tokens={tokens} value={tokenIn} onChange={setTokenIn} />
          <div>
            <label htmlFor="amount">Amount</label>
            <input
              id="amount"
              data-testid="amount"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          </div>
          <TokenSelect id="token-out" label="To" tokens={tokens} value={tokenOut} onChange={setTokenOut} />
          <button
            type="button"
            data-testid="compare"
            disabled={busy || !tokenIn || !tokenOut}
            onClick={compare}
          >
            Compare
          </button>
        </div>
      </section>
      {comparison ? (
        <section data-testid="comparison">
          <p>
            Best: <strong data-testid="best">{show(comparison.execution.amountOut)}</strong> from{" "}
            {comparison.provider}; price impact{" "}
            <strong data-testid="price-impact">
              {comparison.priceImpactBps === null
                ? "not known (the aggregator's own route)"
                : `${comparison.priceImpactBps} bps`}
            </strong>
            ; service fee {comparison.fee.bps} bps (included), gas price {comparison.execution.gasPrice} wei.
          </p>
          <table>
            <thead>
              <tr>
                <th>Source</th>
                <th>Route</th>
                <th>Quoted</th>
                <th>Simulated</th>
                <th>Fee</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {comparison.comparison.map((c) => (
                <tr
                  key={c.id}
                  className={c.selected ? "selected" : ""}
                  data-testid={c.selected ? "selected-candidate" : "candidate"}
                >
                  <td>{c.provider}</td>
                  <td>{c.description}</td>
                  <td>{show(c.amountOut)}</td>
                  <td>{show(c.execution.amountOut)}</td>
                  <td>{c.feeBps} bps</td>
                  <td>
                    {c.execution.status}
                    {c.execution.reason ? ` (${c.execution.reason})` : ""}
                    {c.selected ? " — selected" : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="row" style={{ marginTop: 12 }}>
            <button type="button" data-testid="swap" disabled={busy} onClick={getQuote}>
              {wallet ? "Quote this swap" : "Connect wallet and quote"}
            </button>
            {offer && !followed ? (
              <button type="button" data-testid="confirm-swap" disabled={busy} onClick={confirm}>
                {offer.prepared.approval?.required ? "Approve and swap" : "Swap"} — good for{" "}
                <span data-testid="quote-countdown">{left}</span> s
              </button>
            ) : null}
            {wallet ? <span className="mono">{wallet.address}</span> : null}
          </div>
        </section>
      ) : null}
      {steps.length > 0 ? (
        <section>
          <ol data-testid="steps">
            {steps.map((line) => (
              <li key={line} className="mono">
                {line}
              </li>
            ))}
          </ol>
          {followed ? (
            <div data-testid="settlement">
              <p>
                Settlement: <strong data-testid="settlement-status">{followed.settlement.status}</strong>{" "}
                <span className="muted" data-testid="settlement-source">
                  {followed.source === "webhook"
                    ? "pushed by Junction's webhook"
                    : "fallback: polling receipts (no webhook secret configured)"}
                </span>
              </p>
              <p>
                Received <strong data-testid="received">{show(followed.settlement.amountOut)}</strong>, quoted{" "}
                <strong data-testid="quoted">{show(quoted)}</strong>
                {followed.settlement.routeFee !== undefined ? (
                  <span data-testid="settlement-fees">
                    ; service fee {show(followed.settlement.routeFee)}, builder fee{" "}
                    {show(followed.settlement.builderFee)}
                  </span>
                ) : null}
              </p>
              {followed.settlement.eventId ? (
                <p className="mono muted">
                  event <span data-testid="settlement-event">{followed.settlement.eventId}</span>
                </p>
              ) : null}
            </div>
          ) : null}
        </section>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid="error">
          {error}
        </p>
      ) : null}
    </main>
  );
}

function TokenSelect(props: {
  id: string;
  label: string;
  tokens: Token[];
  value: string;
  onChange: (address: string) => void;
}) {
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        data-testid={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.tokens.map((t) => (
          <option key={t.address} value={t.address}>
            {t.symbol}
          </option>
        ))}
      </select>
    </div>
  );
}

createRoot(document.getElementById("root")!).render(<App />);
