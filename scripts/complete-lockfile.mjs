#!/usr/bin/env node
// Completes package-lock.json with the platform packages npm could not resolve here.
//
// Why: biome and foundry ship one optional package per platform (darwin-arm64, win32-x64, ...). When the
// registry an install talks to lacks some of them (a partial mirror, as on our build machines), npm leaves
// them out of the lockfile, and `npm ci` then fails everywhere ("Missing: @biomejs/cli-darwin-arm64@ from
// lock file"). This adds each missing entry with its exact version and its os/cpu/libc, which is all npm
// needs: on a non-matching platform npm skips the entry without fetching it; on a matching one it fetches
// that exact version from the registry. Run it after `npm install` changes the lockfile:
//   node scripts/complete-lockfile.mjs          (rewrite package-lock.json)
//   node scripts/complete-lockfile.mjs --check  (exit 1 when an entry is missing)
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;

/** os, cpu and libc from a platform package's name (`cli-linux-x64-musl`, `anvil-darwin-amd64`). */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((part) => ["darwin", "linux", "win32", "android", "freebsd"].includes(part));
  const arch = parts.find((part) => ["x64", "amd64", "arm64", "ia32"].includes(part));
  if (!os || !arch) return undefined;
  const platform = { cpu: [arch === "amd64" ? "x64" : arch], os: [os] };
  if (os === "linux" && name.startsWith("@biomejs/"))
    platform.libc = [parts.includes("musl") ? "musl" : "glibc"];
  return platform;
}

const missing = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (packages[target]) continue;
    const platform = platformOf(name);
    if (!platform) throw new Error(`${key}: cannot tell the platform of optional dependency ${name}`);
    missing.push(target);
    packages[target] = {
      version,
      cpu: platform.cpu,
      ...(entry.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: platform.libc } : {}),
      ...(entry.license ? { license: entry.license } : {}),
      optional: true,
      os: platform.os,
    };
  }
}

if (process.argv.includes("--check")) {
  if (missing.length > 0) {
    console.error(`package-lock.json lacks ${missing.length} platform packages:\n  ${missing.join("\n  ")}`);
    console.error("run: node scripts/complete-lockfile.mjs");
    process.exit(1);
  }
  process.exit(0);
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  missing.length
    ? `added ${missing.length} platform packages:\n  ${missing.join("\n  ")}`
    : "package-lock.json is complete",
);
