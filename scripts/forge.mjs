#!/usr/bin/env node
// Runs forge (from the @foundry-rs npm platform package) in contracts/, offline, compiling with
// solc-js through scripts/solc-wrapper.mjs. Usage: node scripts/forge.mjs <forge args...>
// We never rely on @foundry-rs/forge's postinstall (install scripts don't run here).
import { spawn } from "node:child_process";
import { chmodSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const contractsDir = path.join(repoRoot, "contracts");
const solcWrapper = path.join(repoRoot, "scripts", "solc-wrapper.mjs");

// Subcommands (and aliases) that compile and therefore accept `--use` / `--offline`.
const COMPILING_COMMANDS = new Set([
  "build",
  "b",
  "compile",
  "test",
  "t",
  "snapshot",
  "s",
  "coverage",
  "script",
  "inspect",
  "in",
  "create",
  "c",
  "bind",
  "lint",
  "l",
  "config",
  "co",
]);

const ARCHES = { x64: "amd64", arm64: "arm64" };

function resolveForge() {
  if (process.env.FORGE_PATH) return process.env.FORGE_PATH;
  const arch = ARCHES[process.arch];
  if (!arch) return undefined;
  const pkg = `@foundry-rs/forge-${process.platform}-${arch}`;
  try {
    const pkgDir = path.dirname(require.resolve(`${pkg}/package.json`));
    const bin = path.join(pkgDir, "bin", process.platform === "win32" ? "forge.exe" : "forge");
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

function buildArgs(userArgs) {
  // The subcommand is the first non-flag argument (global flags like `-j 4` may precede it).
  const cmdIndex = userArgs.findIndex((a) => !a.startsWith("-"));
  if (cmdIndex === -1 || !COMPILING_COMMANDS.has(userArgs[cmdIndex])) return userArgs;
  const extra = [];
  if (!userArgs.some((a) => a === "--use" || a.startsWith("--use="))) extra.push("--use", solcWrapper);
  if (!userArgs.includes("--offline")) extra.push("--offline");
  return [...userArgs.slice(0, cmdIndex + 1), ...extra, ...userArgs.slice(cmdIndex + 1)];
}

function main() {
  const forge = resolveForge();
  if (!forge || !existsSync(forge)) {
    const platformPkg = `@foundry-rs/forge-${process.platform}-${ARCHES[process.arch] ?? process.arch}`;
    console.error(
      process.env.FORGE_PATH
        ? `forge binary not found: FORGE_PATH=${process.env.FORGE_PATH} does not exist.`
        : `forge binary not found: expected the npm package ${platformPkg} in node_modules ` +
            "(run `npm ci`), or set FORGE_PATH to a forge executable.",
    );
    process.exit(127);
  }
  // A checkout or archive may drop the exec bit; forge executes the wrapper directly.
  try {
    chmodSync(solcWrapper, 0o755);
  } catch {
    // read-only checkout: if the bit is already set this is harmless
  }

  // FOUNDRY_PROFILE and the rest of the environment pass through unchanged.
  const child = spawn(forge, buildArgs(process.argv.slice(2)), { cwd: contractsDir, stdio: "inherit" });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("error", (err) => {
    console.error(`failed to start forge (${forge}): ${err.message}`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeListener(signal, forward);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

main();
