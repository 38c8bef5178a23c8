#!/usr/bin/env node
// Installs the SDK into <project>/node_modules/@junction/sdk exactly as an outside project gets it: the
// tarball `npm pack` makes (its prepack builds dist/), unpacked, nothing else. The project's other
// dependencies (viem, openapi-fetch) resolve as Node resolves them from there.
//
//   node scripts/install-packed-sdk.mjs examples/swap-page
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const project = process.argv[2];
if (!project) {
  process.stderr.write("usage: node scripts/install-packed-sdk.mjs <project dir>\n");
  process.exit(2);
}
const sdkDir = fileURLToPath(new URL("../packages/sdk/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "junction-sdk-"));
try {
  process.stderr.write("packing @junction/sdk (tsc build)...\n");
  const out = execFileSync("npm", ["pack", "--json", "--silent", "--pack-destination", scratch], {
    cwd: sdkDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [{ filename }] = JSON.parse(out.slice(out.indexOf("[")));
  const target = resolve(project, "node_modules/@junction/sdk");
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", join(scratch, filename), "-C", target, "--strip-components=1"]);
  process.stderr.write(`@junction/sdk installed from its tarball into ${target}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
