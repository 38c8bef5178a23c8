import { useCallback, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { createSiweMessage } from "viem/siwe";
import { connectWallet, errorText, junctionChain, type Wallet } from "../shared/wallet.ts";
import { PortalError, portalApi, type WorkspaceView } from "./portal-api.ts";
import { WorkspacePanel } from "./workspace-panel.tsx";

/**
 * The developer portal (served at `/portal`): sign in with the wallet (EIP-4361), then create workspaces,
 * activate their builder IDs by signing the registration, manage keys and webhooks, and read usage, the
 * on-chain profile and settlement history. Every call goes to `/portal/api` with the session cookie.
 */
function App() {
  const [wallet, setWallet] = useState<Wallet>();
  const [address, setAddress] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  // A session cookie from an earlier visit still signs us in.
  useEffect(() => {
    portalApi<{ address: string }>("GET", "/session").then(
      (session) => setAddress(session.address),
      () => {},
    );
  }, []);

  const signIn = useCallback(async () => {
    setBusy(true);
    setError(undefined);
    try {
      const connected = await connectWallet();
      const { nonce } = await portalApi<{ nonce: string }>("GET", "/nonce");
      const now = new Date();
      const message = createSiweMessage({
        domain: window.location.host,
        address: connected.address,
        statement: "Sign in to the Junction developer portal.",
        uri: window.location.origin,
        version: "1",
        chainId: junctionChain.id,
        nonce,
        issuedAt: now,
        expirationTime: new Date(now.getTime() + 10 * 60_000),
      });
      const signature = await connected.wallet.signMessage({ account: connected.address, message });
      const session = await portalApi<{ address: string }>("POST", "/session", { message, signature });
      setWallet(connected);
      setAddress(session.address);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }, []);

  const signOut = useCallback(async () => {
    await portalApi("DELETE", "/session");
    setAddress(undefined);
    setWallet(undefined);
  }, []);

  return (
    <main>
      <header>
        <h1>Junction developer portal</h1>
        {address ? (
          <div>
            <span className="mono" data-testid="signed-in-as">
              {address}
            </span>{" "}
            <button type="button" className="secondary" onClick={signOut}>
              Sign out
            </button>
          </div>
        ) : null}
      </header>
      {address ? (
        <Workspaces address={address} wallet={wallet} onWallet={setWallet} />
      ) : (
        <section>
          <h2>Sign in</h2>
          <p className="muted">
            Sign a message with your Ethereum wallet (Sign-In with Ethereum, EIP-4361). Nothing is sent on
            chain and no fee is paid.
          </p>
          <button type="button" data-testid="sign-in" disabled={busy} onClick={signIn}>
            Sign in with wallet
          </button>
        </section>
      )}
      {error ? (
        <p className="error" role="alert" data-testid="error">
          {error}
        </p>
      ) : null}
    </main>
  );
}

function Workspaces(props: { address: string; wallet: Wallet | undefined; onWallet: (w: Wallet) => void }) {
  const [workspaces, setWorkspaces] = useState<WorkspaceView[]>([]);
  const [name, setName] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  // The open workspace lives in the URL (#<id>), so a reload or a shared link opens it again.
  const [selected, select] = useState<string>();
  const setSelected = useCallback((id: string | undefined) => {
    select(id);
    if (id) window.history.replaceState(null, "", `#${id}`);
  }, []);

  const load = useCallback(async () => {
    const { workspaces } = await portalApi<{ workspaces: WorkspaceView[] }>("GET", "/workspaces");
    setWorkspaces(workspaces);
    return workspaces;
  }, []);
  useEffect(() => {
    const wanted = window.location.hash.slice(1);
    load().then(
      (list) => setSelected(list.some((w) => w.id === wanted) ? wanted : list[0]?.id),
      (e) => setError(errorText(e)),
    );
  }, [load, setSelected]);

  const create = async () => {
    setError(undefined);
    try {
      const { workspace } = await portalApi<{ workspace: WorkspaceView }>("POST", "/workspaces", {
        name,
        code,
      });
      await load();
      setSelected(workspace.id);
      setName("");
      setCode("");
    } catch (e) {
      setError(e instanceof PortalError ? e.message : errorText(e));
    }
  };

  return (
    <>
      <section>
        <h2>Workspaces</h2>
        {workspaces.length === 0 ? <p className="muted">No workspace yet: create one below.</p> : null}
        <table>
          <tbody>
            {workspaces.map((w) => (
              <tr key={w.id}>
                <td>{w.name}</td>
                <td className="mono">{w.code}</td>
                <td>{w.activated ? "active" : "not activated"}</td>
                <td>
                  <button type="button" className="secondary" onClick={() => setSelected(w.id)}>
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row">
          <div>
            <label htmlFor="ws-name">Workspace name</label>
            <input
              id="ws-name"
              data-testid="workspace-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="ws-code">Builder code (public, 3-32 of A-Z a-z 0-9 _ -)</label>
            <input
              id="ws-code"
              data-testid="workspace-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <button type="button" data-testid="create-workspace" onClick={create}>
            Create workspace
          </button>
        </div>
        {error ? (
          <p className="error" role="alert" data-testid="workspace-error">
            {error}
          </p>
        ) : null}
      </section>
      {selected ? (
        <WorkspacePanel
          key={selected}
          id={selected}
          address={props.address}
          wallet={props.wallet}
          onWallet={props.onWallet}
          onChanged={load}
        />
      ) : null}
    </>
  );
}

createRoot(document.getElementById("root")!).render(<App />);
