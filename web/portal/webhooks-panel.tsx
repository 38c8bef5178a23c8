import { useCallback, useEffect, useState } from "react";
import { errorText } from "../shared/wallet.ts";
import { portalApi, type WebhookEndpoint } from "./portal-api.ts";
import { WebhookDeliveries } from "./webhook-deliveries.tsx";

/**
 * A workspace's webhook endpoints (docs/api/builders.md, "Events and webhooks"): add one (its signing secret
 * shown once), send a test event, rotate the secret (the new one shown once), remove, and read each
 * endpoint's delivery log.
 */
export function Webhooks(props: { workspaceId: string }) {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[]>([]);
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const [url, setUrl] = useState("");
  const [chosen, setChosen] = useState<string[]>();
  const [secret, setSecret] = useState<{ endpointId: string; secret: string; rotated: boolean }>();
  const [open, setOpen] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const path = `/workspaces/${props.workspaceId}/webhooks`;
  const load = useCallback(
    () =>
      portalApi<{ endpoints: WebhookEndpoint[]; eventTypes: string[] }>("GET", path).then((answer) => {
        setEndpoints(answer.endpoints);
        setEventTypes(answer.eventTypes);
      }),
    [path],
  );
  useEffect(() => {
    load().catch((e) => setError(errorText(e)));
  }, [load]);
  // Every event type is ticked until the owner unticks one.
  const types = chosen ?? eventTypes;

  /** Runs one change, then reads the list again; a refusal is shown, not thrown. */
  const act = async (change: () => Promise<void>) => {
    setError(undefined);
    setNotice(undefined);
    try {
      await change();
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const add = () =>
    act(async () => {
      const added = await portalApi<{ endpoint: WebhookEndpoint; secret: string }>("POST", path, {
        url,
        eventTypes: types,
      });
      setSecret({ endpointId: added.endpoint.id, secret: added.secret, rotated: false });
      setUrl("");
    });
  const test = (id: string) =>
    act(async () => {
      await portalApi("POST", `${path}/${id}/test`);
      setNotice("Test event queued: it is delivered within a few seconds; see the delivery log.");
      setOpen(id);
    });
  const rotate = (id: string) =>
    act(async () => {
      const rotated = await portalApi<{ secret: string }>("POST", `${path}/${id}/rotate`);
      setSecret({ endpointId: id, secret: rotated.secret, rotated: true });
    });
  const remove = (id: string) =>
    act(async () => {
      await portalApi("DELETE", `${path}/${id}`);
      if (secret?.endpointId === id) setSecret(undefined);
      if (open === id) setOpen(undefined);
    });

  return (
    <section data-testid="webhooks">
      <h2>Webhooks</h2>
      <p className="muted">
        Settlement events are POSTed to your endpoints, signed with the endpoint's secret (header{" "}
        <code>Junction-Signature</code>). A secret is shown once, when the endpoint is added or its secret
        rotated; after a rotation the old secret keeps signing for 24 hours.
      </p>
      {secret ? <NewSecret {...secret} onDone={() => setSecret(undefined)} /> : null}
      {endpoints.length === 0 ? <p className="muted">No webhook endpoint yet: add one below.</p> : null}
      <table data-testid="webhook-endpoints">
        <tbody>
          {endpoints.map((e) => (
            <tr key={e.id} data-testid={`webhook-${e.id}`}>
              <td className="mono" data-testid="webhook-url">
                {e.url}
              </td>
              <td>{e.eventTypes.join(", ")}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="secondary"
                    data-testid="webhook-test"
                    onClick={() => test(e.id)}
                  >
                    Send test event
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    data-testid="webhook-deliveries"
                    onClick={() => setOpen(open === e.id ? undefined : e.id)}
                  >
                    {open === e.id ? "Hide deliveries" : "Deliveries"}
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    data-testid="webhook-rotate"
                    onClick={() => rotate(e.id)}
                  >
                    Rotate secret
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    data-testid="webhook-remove"
                    onClick={() => remove(e.id)}
                  >
                    Remove
                  </button>
                </div>
                {e.previousSecretValidUntil ? (
                  <p className="muted">
                    The previous secret also signs until{" "}
                    {new Date(e.previousSecretValidUntil).toLocaleString()}.
                  </p>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open ? <WebhookDeliveries key={open} path={`${path}/${open}`} /> : null}
      <div className="row">
        <div>
          <label htmlFor="webhook-url">Endpoint URL (https://)</label>
          <input
            id="webhook-url"
            data-testid="webhook-url-input"
            size={44}
            placeholder="https://example.com/junction/webhooks"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div>
          <span>Events</span>
          {eventTypes.map((type) => (
            <label key={type} style={{ display: "inline", marginLeft: 8 }}>
              <input
                type="checkbox"
                data-testid={`webhook-event-${type}`}
                checked={types.includes(type)}
                onChange={(e) =>
                  setChosen(e.target.checked ? [...types, type] : types.filter((t) => t !== type))
                }
              />{" "}
              {type}
            </label>
          ))}
        </div>
        <button type="button" data-testid="webhook-add" disabled={types.length === 0} onClick={add}>
          Add endpoint
        </button>
      </div>
      {notice ? (
        <p className="ok" data-testid="webhook-notice">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid="webhook-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** A signing secret just issued: shown this once, with a way to copy it. */
function NewSecret(props: { endpointId: string; secret: string; rotated: boolean; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  // The clipboard needs a secure context (https or localhost); elsewhere the owner copies the text by hand.
  const byHand = () => setCopied("Copying is not allowed here: mark the secret and copy it by hand.");
  const copy = () =>
    navigator.clipboard?.writeText(props.secret).then(() => setCopied("Copied."), byHand) ?? byHand();
  return (
    <div className="secret" data-testid="new-webhook-secret">
      <strong>
        {props.rotated ? "New signing secret" : "Signing secret"} for{" "}
        <span className="mono">{props.endpointId}</span>: copy it now, it will not be shown again.
      </strong>
      <div className="mono" data-testid="new-webhook-secret-value">
        {props.secret}
      </div>
      <div className="row">
        <button type="button" className="secondary" onClick={copy}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={props.onDone}>
          I copied it
        </button>
        {copied ? <span className="muted">{copied}</span> : null}
      </div>
    </div>
  );
}
