import { useCallback, useEffect, useState } from "react";
import { errorText } from "../shared/wallet.ts";
import { type KeyView, portalApi } from "./portal-api.ts";

const SCOPES = ["quote", "swap", "tokens", "receipts"] as const;

/** A workspace's API keys: create (the secret shown once), list, revoke. */
export function Keys(props: { workspaceId: string; activated: boolean }) {
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
