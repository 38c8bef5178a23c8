import { useCallback, useEffect, useState } from "react";
import { errorText } from "../shared/wallet.ts";
import { portalApi, type WebhookDelivery } from "./portal-api.ts";

/** While a delivery is pending, the log is read again this often. */
const POLL_MS = 2000;

/**
 * One endpoint's delivery log, newest first (docs/api/builders.md, "Events and webhooks"): status, attempts,
 * last response code, error and time, next attempt; any delivery can be sent again from the start of the
 * retry schedule.
 */
export function WebhookDeliveries(props: { path: string }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>();
  const [error, setError] = useState<string>();
  const load = useCallback(
    () =>
      portalApi<{ deliveries: WebhookDelivery[] }>("GET", `${props.path}/deliveries`).then((answer) =>
        setDeliveries(answer.deliveries),
      ),
    [props.path],
  );
  useEffect(() => {
    load().catch((e) => setError(errorText(e)));
  }, [load]);
  // A test event or a redelivery settles within seconds: follow it while anything is pending.
  const pending = deliveries?.some((d) => d.status === "pending") ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => load().catch(() => {}), POLL_MS);
    return () => clearInterval(timer);
  }, [pending, load]);

  const redeliver = async (id: string) => {
    setError(undefined);
    try {
      await portalApi("POST", `${props.path}/deliveries/${id}/redeliver`);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "-");

  return (
    <div data-testid="webhook-delivery-log">
      <div className="row">
        <h3>Deliveries</h3>
        <button
          type="button"
          className="secondary"
          onClick={() => load().catch((e) => setError(errorText(e)))}
        >
          Refresh
        </button>
      </div>
      {deliveries?.length === 0 ? <p className="muted">No delivery to this endpoint yet.</p> : null}
      <table>
        <thead>
          <tr>
            <th>Event</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Last response</th>
            <th>Last error</th>
            <th>Last attempt</th>
            <th>Next attempt</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(deliveries ?? []).map((d) => (
            <tr key={d.id} data-testid={`delivery-${d.id}`}>
              <td className="mono" title={d.eventId}>
                {d.eventType}
              </td>
              <td data-testid="delivery-status">{d.status}</td>
              <td data-testid="delivery-attempts">{d.attempts}</td>
              <td data-testid="delivery-last-status" title={d.lastResponse ?? ""}>
                {d.lastStatus ?? "-"}
              </td>
              <td>{d.lastError ?? "-"}</td>
              <td>{when(d.lastAttemptAt)}</td>
              <td>{when(d.nextAttemptAt)}</td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  data-testid="redeliver"
                  onClick={() => redeliver(d.id)}
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
