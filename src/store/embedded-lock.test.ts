import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireEmbeddedLock,
  acquireServiceLock,
  EmbeddedLockError,
  lockPath,
  readEmbeddedLock,
  tryAcquireEmbeddedLock,
} from "./embedded-lock.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "junction-lock-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A pid that certainly names no process now: a child that has already exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("embedded database lock", () => {
  it("admits one holder at a time, even in the same process, and names it to the others", () => {
    const first = acquireEmbeddedLock(dataDir, "direct");
    const second = tryAcquireEmbeddedLock(dataDir, "direct");
    expect("holder" in second && second.holder).toMatchObject({ pid: process.pid, role: "direct" });
    expect(() => acquireEmbeddedLock(dataDir, "service")).toThrow(EmbeddedLockError);
    expect(() => acquireEmbeddedLock(dataDir, "service")).toThrow(/in use by another process \(pid \d+/);
    first.release();
    expect(existsSync(lockPath(dataDir))).toBe(false);
    acquireEmbeddedLock(dataDir, "direct").release();
  });

  it("publishes the service's URL in the lock for other processes", () => {
    const lock = acquireEmbeddedLock(dataDir, "service");
    lock.publish("postgresql://postgres@localhost/postgres?host=%2Ftmp%2Fx");
    expect(readEmbeddedLock(dataDir)).toMatchObject({
      role: "service",
      url: "postgresql://postgres@localhost/postgres?host=%2Ftmp%2Fx",
    });
    expect(() => acquireEmbeddedLock(dataDir, "direct")).toThrow(/the junction service \(pid/);
    lock.release();
  });

  it("takes over a lock whose process is gone, or that is damaged", () => {
    writeFileSync(
      lockPath(dataDir),
      JSON.stringify({
        pid: deadPid(),
        role: "service",
        startedAt: "x",
        token: "old",
        url: "postgresql://x",
      }),
    );
    expect(readEmbeddedLock(dataDir)).toBeUndefined();
    const lock = acquireEmbeddedLock(dataDir, "direct");
    expect(JSON.parse(readFileSync(lockPath(dataDir), "utf8"))).toMatchObject({ pid: process.pid });
    lock.release();
    writeFileSync(lockPath(dataDir), "{not json");
    acquireEmbeddedLock(dataDir, "direct").release();
  });

  it("treats a lock from before a reboot as stale even if its pid is in use again", () => {
    if (!existsSync("/proc/sys/kernel/random/boot_id")) return;
    writeFileSync(
      lockPath(dataDir),
      JSON.stringify({
        pid: process.pid,
        role: "direct",
        startedAt: "x",
        token: "old",
        bootId: "another-boot",
      }),
    );
    acquireEmbeddedLock(dataDir, "direct").release();
  });

  it("release removes only its own lock", () => {
    const lock = acquireEmbeddedLock(dataDir, "direct");
    rmSync(lockPath(dataDir));
    const other = acquireEmbeddedLock(dataDir, "direct");
    lock.release();
    expect(readEmbeddedLock(dataDir)?.token).toBe(other.holder.token);
    other.release();
  });

  it("keeps `junction start` and `junction devnet` off each other's data dir, naming the holder", () => {
    const devnet = acquireServiceLock(dataDir, "devnet");
    expect(() => acquireServiceLock(dataDir, "start")).toThrow(
      new RegExp(`in use by a running \`junction devnet\` \\(pid ${process.pid}, since `),
    );
    devnet.release();
    const start = acquireServiceLock(dataDir, "start");
    expect(() => acquireServiceLock(dataDir, "devnet")).toThrow(
      new RegExp(`in use by a running junction service \\(pid ${process.pid}, since `),
    );
    start.release();
  });
});
