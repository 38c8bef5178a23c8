import { useCallback, useEffect, useState } from "react";
import {
  prepareForSigning,
  signAndSend,
  type UnsignedTransaction,
} from "../../packages/sdk/src/wallet-flow.ts";
import { connectWallet, errorText, type Wallet } from "../shared/wallet.ts";
import { History, Usage } from "./activity-panels.tsx";
import { Keys } from "./keys-panel.tsx";
import { portalApi, type WorkspaceStatus } from "./portal-api.ts";
import { Webhooks } from "./webhooks-panel.tsx";

/** While activation waits for the registration, the status is read again this often. */
const POLL_MS = 1500;

/**
 * One workspace: activation (signing the registration), keys, webhooks, usage, on-chain profile and
 * history.
 */
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
      <Webhooks workspaceId={id} />
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
