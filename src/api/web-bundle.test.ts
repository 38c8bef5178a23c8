import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { webBundle } from "./web-bundle.ts";

/** This process's children running esbuild, from /proc (Linux). */
function esbuildChildren(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (ppid === process.pid && command.includes("esbuild")) found.push(command.trim());
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

async function settled(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

function entry(dir: string, name: string, text: string): URL {
  const path = join(dir, name);
  writeFileSync(path, text);
  return pathToFileURL(path);
}

describe.runIf(process.platform === "linux")("webBundle", () => {
  it("stops esbuild's pinging service once nothing builds, and builds again after", async () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-bundle-"));
    const first = webBundle(entry(dir, "a.tsx", "export const greeting: string = 'first bundle';\n"));
    const second = webBundle(entry(dir, "b.tsx", "export const greeting: string = 'second bundle';\n"));

    const both = [first(), second()];
    expect(esbuildChildren().length).toBeGreaterThan(0);
    expect(await Promise.all(both)).toEqual([
      expect.stringContaining("first bundle"),
      expect.stringContaining("second bundle"),
    ]);
    await settled(() => esbuildChildren().length === 0);
    expect(esbuildChildren()).toEqual([]);

    // Kept: asking again builds nothing.
    expect(await first()).toContain("first bundle");
    expect(esbuildChildren()).toEqual([]);

    const third = webBundle(entry(dir, "c.tsx", "export const greeting: string = 'third bundle';\n"));
    expect(await third()).toContain("third bundle");
    await settled(() => esbuildChildren().length === 0);
    expect(esbuildChildren()).toEqual([]);
  });
});
