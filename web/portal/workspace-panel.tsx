import { useCallback, useEffect, useState } from "react";
import {
  prepareForSigning,
  signAndSend,
  type UnsignedTransaction,
} from "../../packages/sdk/src/wallet-flow.ts";
import { connectWallet, errorText, type Wallet } from "../shared/wallet.ts";
import { type KeyView, portalApi, type Settlement, type WorkspaceStatus } from "./portal-api.ts";

const SCOPES = ["quote", "swap", "tokens", "receipts"] as const;
/** While activation waits for the registration, the status is read again this often. */
const POLL_MS = 1500;

/** One workspace: activation (signing the registration), keys, usage, on-chain profile and history. */
export function WorkspacePanel(props: {
  id: string;
  address: string;
  wallet: Wallet | undefined;
  onWallet: (wallet: Wallet) => void;
  onChanged: () => void;
}) {
  const { id } = props;
  const [status, setStatus] = useState<WorkspaceStatus>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<string>();

  const refresh = useCallback(async () => {
    const next = await portalApi<WorkspaceStatus>("GET", `/workspaces/${id}`);
    setStatus(next);
    return next;
  }, [id]);
  useEffect(() => {
    refresh().catch((e) => setError(errorText(e)));
  }, [refresh]);

  // Activation updates by itself after confirmation: poll while a registration is on its way.
  useEffect(() => {
    if (!pending || status?.activation.status === "active") return;
    const timer = setInterval(() => {
      refresh().then(
        (next) => {
          if (next.activation.status === "active") {
            setPending(undefined);
            props.onChanged();
          }
        },
        () => {},
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, status, refresh, props]);

  const walletNow = async () => {
    if (props.wallet) return props.wallet;
    const wallet = await connectWallet();
    props.onWallet(wallet);
    return wallet;
  };

  if (!status) return <section>{error ? <p className="error">{error}</p> : "Loading…"}</section>;
  const { workspace, activation, profile } = status;
  return (
    <>
      <section data-testid="workspace-panel">
        <h2>
          {workspace.name} <span className="mono">({workspace.code})</span>
        </h2>
        <p>
          Builder ID:{" "}
          <strong data-testid="activation-status">
            {activation.status === "active"
              ? "active"
              : activation.status === "waiting"
                ? pending
                  ? "waiting for confirmation"
                  : "not activated"
                : activation.status === "suspended"
                  ? "suspended by governance"
                  : "registered by another wallet"}
          </strong>
        </p>
        {activation.status === "owner-mismatch" ? (
          <p className="error" data-testid="owner-mismatch">
            {workspace.code} is registered on chain by {activation.builder?.owner}, not by this workspace's
            wallet ({workspace.owner}); it cannot be activated here.
          </p>
        ) : null}
        {activation.status === "waiting" && !pending ? (
          <Activate
            workspaceId={id}
            address={props.address}
            onSigned={(hash) => setPending(hash)}
            walletNow={walletNow}
          />
        ) : null}
        {pending ? (
          <p className="muted">
            Registration sent: <span className="mono">{pending}</span>
          </p>
        ) : null}
        {profile ? <Profile builder={profile} /> : null}
        {error ? <p className="error">{error}</p> : null}
      </section>
      <Keys workspaceId={id} activated={activation.status === "active"} />
      <Usage workspaceId={id} />
      <History workspaceId={id} />
    </>
  );
}

function Activate(props: {
  workspaceId: string;
  address: string;
  onSigned: (hash: string) => void;
  walletNow: () => Promise<Wallet>;
}) {
  const [recipient, setRecipient] = useState("");
  const [fee, setFee] = useState("10");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const activate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const wallet = await props.walletNow();
      const { transaction } = await portalApi<{ transaction: UnsignedTransaction }>(
        "POST",
        `/workspaces/${props.workspaceId}/activation`,
        { recipient: recipient || wallet.address, builderFeeBps: Number(fee) },
      );
      // Rule 16: fresh fee fields, simulated again from the wallet, then exactly those fields signed.
      const signable = await prepareForSigning(wallet.reader, transaction);
      props.onSigned(await signAndSend(wallet.wallet, signable));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <p className="muted">
        Activate the builder ID: choose the payout wallet and default builder fee, then sign the registration
        transaction. Keys with quote or swap scope need an active builder ID.
      </p>
      <div className="row">
        <div>
          <label htmlFor="recipient">Payout wallet (default: yours)</label>
          <input
            id="recipient"
            data-testid="payout-wallet"
            size={44}
            placeholder={props.address}
            value={recipient}
            onChange={(e) => setRecipient(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="fee">Builder fee (bps, 0-50)</label>
          <input
            id="fee"
            data-testid="builder-fee"
            size={4}
            value={fee}
            onChange={(e) => setFee(e.target.value)}
          />
        </div>
        <button type="button" data-testid="activate" disabled={busy} onClick={activate}>
          Activate builder ID
        </button>
      </div>
      {error ? (
        <p className="error" role="alert" data-testid="activation-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Profile(props: { builder: NonNullable<WorkspaceStatus["profile"]> }) {
  const b = props.builder;
  return (
    <table data-testid="profile">
      <tbody>
        <tr>
          <th>Owner</th>
          <td className="mono">{b.owner}</td>
        </tr>
        <tr>
          <th>Payout wallet</th>
          <td className="mono">{b.recipient}</td>
        </tr>
        <tr>
          <th>Builder fee</th>
          <td>
            {b.builderFeeBps} bps (cap {b.maxBuilderFeeBps})
          </td>
        </tr>
        <tr>
          <th>Service fee</th>
          <td>{b.routeFeeBps === null ? "standard schedule" : `${b.routeFeeBps} bps`}</td>
        </tr>
        <tr>
          <th>Enabled</th>
          <td>{b.enabled ? "yes" : "no (suspended)"}</td>
        </tr>
        <tr>
          <th>Version</th>
          <td>
            {b.version} (block {b.policyBlock})
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function Keys(props: { workspaceId: string; activated: boolean }) {
  const [keys, setKeys] = useState<KeyView[]>([]);
  const [name, setName] = useState("server");
  const [scopes, setScopes] = useState<string[]>(["quote", "swap", "tokens", "receipts"]);
  const [days, setDays] = useState("90");
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const path = `/workspaces/${props.workspaceId}/keys`;
  const load = useCallback(
    () => portalApi<{ keys: KeyView[] }>("GET", path).then(({ keys }) => setKeys(keys)),
    [path],
  );
  useEffect(() => {
    load().catch((e) => setError(errorText(e)));
  }, [load]);
  const create = async () => {
    setError(undefined);
    try {
      const { key } = await portalApi<{ key: { secret: string } }>("POST", path, {
        name,
        scopes,
        expiresInDays: Number(days),
      });
      setSecret(key.secret);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const revoke = async (keyId: string) => {
    setError(undefined);
    try {
      await portalApi("DELETE", `${path}/${keyId}`);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section>
      <h2>API keys</h2>
      <p className="muted">
        Keys belong on your backend (header <code>x-api-key</code>). A key is shown once, when created.
        {props.activated
          ? ""
          : " Until the builder ID is active, only tokens and receipts keys can be created."}
      </p>
      {secret ? (
        <div className="secret" data-testid="new-key">
          <strong>Copy this key now; it will not be shown again:</strong>
          <div className="mono" data-testid="new-key-secret">
            {secret}
          </div>
          <button type="button" className="secondary" onClick={() => setSecret(undefined)}>
            I copied it
          </button>
        </div>
      ) : null}
      <table data-testid="keys">
        <thead>
          <tr>
            <th>Key</th>
            <th>Name</th>
            <th>Scopes</th>
            <th>Status</th>
            <th>Expires</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} data-testid={`key-${k.prefix}`}>
              <td className="mono">{k.prefix}…</td>
              <td>{k.name}</td>
              <td>{k.scopes.join(", ")}</td>
              <td data-testid="key-status">{k.status}</td>
              <td>{k.expiresAt ? new Date(k.expiresAt).toLocaleDateString() : "never"}</td>
              <td>
                {k.status === "active" ? (
                  <button
                    type="button"
                    className="secondary"
                    data-testid="revoke"
                    onClick={() => revoke(k.id)}
                  >
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <div>
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            data-testid="key-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div>
          <span>Scopes</span>
          {SCOPES.map((scope) => (
            <label key={scope} style={{ display: "inline", marginLeft: 8 }}>
              <input
                type="checkbox"
                data-testid={`scope-${scope}`}
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes((now) => (e.target.checked ? [...now, scope] : now.filter((s) => s !== scope)))
                }
              />{" "}
              {scope}
            </label>
          ))}
        </div>
        <div>
          <label htmlFor="key-days">Expires in (days)</label>
          <input id="key-days" size={4} value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
        <button type="button" data-testid="create-key" onClick={create}>
          Create key
        </button>
      </div>
      {error ? (
        <p className="error" role="alert" data-testid="key-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

type Usage = {
  name: string;
  usage: Record<string, unknown>;
  windows: { minuteResetsAt: string; hourResetsAt: string };
};

function Usage(props: { workspaceId: string }) {
  const [usage, setUsage] = useState<Usage>();
  useEffect(() => {
    portalApi<Usage>("GET", `/workspaces/${props.workspaceId}/usage`).then(setUsage, () => {});
  }, [props.workspaceId]);
  return (
    <section>
      <h2>Usage</h2>
      {usage ? (
        <>
          <pre className="mono" data-testid="usage">
            {JSON.stringify(usage.usage, null, 2)}
          </pre>
          <p className="muted">
            Minute window resets at {new Date(usage.windows.minuteResetsAt).toLocaleTimeString()}, hour window
            at {new Date(usage.windows.hourResetsAt).toLocaleTimeString()}.
          </p>
        </>
      ) : (
        "Loading…"
      )}
    </section>
  );
}

type HistoryPage = { settlements: Settlement[]; nextCursor: string | null; finalizedThrough: string };

/** Pages read per click: history pages scan 1000 blocks each, most of them empty. */
const PAGES_PER_LOAD = 20;

function History(props: { workspaceId: string }) {
  const [rows, setRows] = useState<Settlement[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const [through, setThrough] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const load = async (restart: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      let next = restart ? undefined : cursor;
      const found: Settlement[] = [];
      for (let i = 0; i < PAGES_PER_LOAD; i++) {
        const query = next ? `?cursor=${encodeURIComponent(next)}` : "";
        const page = await portalApi<HistoryPage>("GET", `/workspaces/${props.workspaceId}/history${query}`);
        found.push(...page.settlements);
        setThrough(page.finalizedThrough);
        next = page.nextCursor;
        if (next === null) break;
      }
      setRows((now) => (restart ? found : [...now, ...found]));
      setCursor(next);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section>
      <h2>Finalized settlements</h2>
      <div className="row">
        <button
          type="button"
          className="secondary"
          data-testid="load-history"
          disabled={busy}
          onClick={() => load(true)}
        >
          {cursor === undefined ? "Load history" : "Reload"}
        </button>
        {cursor ? (
          <button type="button" className="secondary" disabled={busy} onClick={() => load(false)}>
            More
          </button>
        ) : null}
        {through ? <span className="muted">finalized through block {through}</span> : null}
      </div>
      <table data-testid="history">
        <tbody>
          {rows.map((s) => (
            <tr key={`${s.hash}-${s.quoteId}`}>
              <td className="mono">{s.hash.slice(0, 18)}…</td>
              <td>block {s.blockNumber}</td>
              <td className="mono">out {s.amountOut}</td>
              <td className="mono">route fee {s.routeFee}</td>
              <td className="mono">builder fee {s.builderFee}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {cursor === null && rows.length === 0 ? <p className="muted">No finalized settlement yet.</p> : null}
      {error ? <p className="error">{error}</p> : null}
    </section>
  );
}
