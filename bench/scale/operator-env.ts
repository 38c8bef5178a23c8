import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The `junction` command as an operator runs it. */
export const JUNCTION_BIN = join(dirname(fileURLToPath(import.meta.url)), "../../bin/junction.js");

/**
 * This process's environment without any Junction setting or database URL, so a `junction` command run by
 * the benchmark sees only what the benchmark gives it (an operator's own settings never leak into a run).
 */
export function operatorEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith("JUNCTION_") || name === "DATABASE_URL") delete env[name];
  return env;
}
