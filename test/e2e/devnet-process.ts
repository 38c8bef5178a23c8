import { type ChildProcess, spawn } from "node:child_process";
import { copySnapshot } from "../devnet.ts";

/** `junction devnet` on a copy of the test snapshot (a warm boot), as the doc's first step runs it. */
export async function startDevnetProcess(): Promise<{
  child: ChildProcess;
  dataDir: string;
  rpcUrl: string;
  manifestPath: string;
}> {
  const dataDir = copySnapshot();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith("JUNCTION_") || name === "DATABASE_URL") delete env[name];
  Object.assign(env, { JUNCTION_DATA_DIR: dataDir, JUNCTION_DEVNET_PORT: "0" });
  const child = spawn(process.execPath, ["bin/junction.js", "devnet"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const printed = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`devnet did not start:\n${output}`)), 90_000);
    for (const stream of [child.stdout!, child.stderr!])
      stream.on("data", (chunk) => {
        output += chunk;
        if (/manifest \S+\n/.test(output)) {
          clearTimeout(timer);
          resolve(output);
        }
      });
    child.once("exit", (code) => reject(new Error(`devnet exited with ${code}:\n${output}`)));
  });
  const rpcUrl = /rpc\s+(http:\/\/\S+)/.exec(printed)?.[1];
  const manifestPath = /manifest (\S+)\n/.exec(printed)?.[1];
  if (!rpcUrl || !manifestPath) throw new Error(`no rpc or manifest in the devnet output:\n${printed}`);
  return { child, dataDir, rpcUrl, manifestPath };
}
