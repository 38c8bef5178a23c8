import { useEffect, useState } from "react";
import { errorText } from "../shared/wallet.ts";
import { portalApi, type Settlement } from "./portal-api.ts";

/** A workspace's usage in the current quota windows, and its finalized settlement history. */
type Usage = {
  name: string;
  usage: Record<string, unknown>;
  windows: { minuteResetsAt: string; hourResetsAt: string };
};

export function Usage(props: { workspaceId: string }) {
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

export function History(props: { workspaceId: string }) {
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
