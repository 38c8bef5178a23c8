import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Who holds the embedded database. PGlite runs Postgres inside one process: two processes opening the same
 * `<dataDir>/db` would each believe they own the files and corrupt them. So whoever opens it holds
 * `<dataDir>/db.lock`, naming itself and, for a running service, the socket where others may reach it.
 */
export type EmbeddedLockHolder = {
  pid: number;
  /** `service` serves the database to other processes at `url`; `direct` uses it alone (the CLI, tests). */
  role: "service" | "direct";
  /** A Postgres URL reaching the holder's database (set once a service listens). */
  url?: string;
  startedAt: string;
  /** Linux boot id: a pid from before a reboot names some other process now. */
  bootId?: string;
  /** Tells this holding apart from a later one by the same pid. */
  token: string;
  /** For `service.lock`: which command holds the data dir (`junction start` or `junction devnet`). */
  command?: DataDirCommand;
};

/** The commands that own the files in a data dir while they run (the devnet's state and manifest, the database). */
export type DataDirCommand = "start" | "devnet";

/** The embedded database is held by another live process. */
export class EmbeddedLockError extends Error {
  override name = "EmbeddedLockError";
  constructor(
    message: string,
    readonly holder?: EmbeddedLockHolder,
  ) {
    super(message);
  }
}

export type EmbeddedLock = {
  path: string;
  holder: EmbeddedLockHolder;
  /** Records where other processes can reach the database (atomically replaces the lock's contents). */
  publish: (url: string) => void;
  /** Removes the lock if it is still ours. Idempotent; also runs at process exit. */
  release: () => void;
};

export const lockPath = (dataDir: string) => join(dataDir, "db.lock");

/** A takeover guard older than this was left by a crash mid-takeover (a takeover takes microseconds). */
const STALE_GUARD_MS = 10_000;

/**
 * Takes the lock, or returns the live process holding it. A lock whose process is gone (crash, kill -9,
 * reboot) is stale and taken over. Never blocks: callers decide whether to wait or connect.
 */
export function tryAcquireEmbeddedLock(
  dataDir: string,
  role: EmbeddedLockHolder["role"],
): { lock: EmbeddedLock } | { holder: EmbeddedLockHolder } {
  return tryAcquireLockFile(dataDir, lockPath(dataDir), role);
}

/**
 * Takes `<dataDir>/service.lock` for `junction start` or `junction devnet`, before it touches anything in
 * the data dir (the devnet's state and manifest, the database), or throws EmbeddedLockError naming the
 * live process that holds it. A second start (or a devnet) on a data dir in use is refused with every file
 * untouched; a lock left by a crashed process is taken over.
 */
export function acquireServiceLock(dataDir: string, command: DataDirCommand = "start"): EmbeddedLock {
  const result = tryAcquireLockFile(dataDir, join(dataDir, "service.lock"), "service", command);
  if ("lock" in result) return result.lock;
  const { pid, startedAt } = result.holder;
  const who = result.holder.command === "devnet" ? "`junction devnet`" : "junction service";
  throw new EmbeddedLockError(
    `the data dir ${dataDir} is in use by a running ${who} (pid ${pid}, since ${startedAt}); stop it first, or run this one with another JUNCTION_DATA_DIR`,
    result.holder,
  );
}

function tryAcquireLockFile(
  dataDir: string,
  path: string,
  role: EmbeddedLockHolder["role"],
  command?: DataDirCommand,
): { lock: EmbeddedLock } | { holder: EmbeddedLockHolder } {
  mkdirSync(dataDir, { recursive: true });
  const holder: EmbeddedLockHolder = {
    pid: process.pid,
    role,
    ...(command ? { command } : {}),
    startedAt: new Date().toISOString(),
    ...(currentBootId() ? { bootId: currentBootId() } : {}),
    token: randomBytes(12).toString("hex"),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusive(path, holder)) return { lock: held(path, holder) };
    const existing = readLockFile(path);
    if (existing === "missing") continue;
    if (existing !== "unreadable" && isAlive(existing)) return { holder: existing };
    takeOverStale(path, existing);
  }
  throw new EmbeddedLockError(`cannot take ${path}: other processes keep racing for it`);
}

/** The live holder of the lock, if any (a stale lock reads as none). */
export function readEmbeddedLock(dataDir: string): EmbeddedLockHolder | undefined {
  const existing = readLockFile(lockPath(dataDir));
  return typeof existing === "object" && isAlive(existing) ? existing : undefined;
}

/** Takes the lock or throws EmbeddedLockError naming the holder. */
export function acquireEmbeddedLock(dataDir: string, role: EmbeddedLockHolder["role"]): EmbeddedLock {
  const result = tryAcquireEmbeddedLock(dataDir, role);
  if ("lock" in result) return result.lock;
  throw heldError(dataDir, result.holder);
}

/** The operator-facing message for a database held by someone else. */
export function heldError(dataDir: string, holder: EmbeddedLockHolder): EmbeddedLockError {
  const who =
    holder.role === "service"
      ? `the junction service (pid ${holder.pid})`
      : `another process (pid ${holder.pid}, since ${holder.startedAt})`;
  return new EmbeddedLockError(
    `the embedded database in ${dataDir} is in use by ${who}; stop it or set DATABASE_URL`,
    holder,
  );
}

/** Creates the lock with its full contents in one step: a reader never sees a half-written lock. */
function createExclusive(path: string, holder: EmbeddedLockHolder): boolean {
  const temp = `${path}.${holder.token}.tmp`;
  writeFileSync(temp, JSON.stringify(holder), { mode: 0o600 });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function held(path: string, holder: EmbeddedLockHolder): EmbeddedLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    const current = readLockFile(path);
    if (typeof current === "object" && current.token === holder.token) unlinkQuietly(path);
  };
  process.on("exit", release);
  return {
    path,
    holder,
    publish: (url) => {
      holder.url = url;
      const temp = `${path}.${holder.token}.tmp`;
      writeFileSync(temp, JSON.stringify(holder), { mode: 0o600 });
      renameSync(temp, path);
    },
    release,
  };
}

/**
 * Removes a stale lock under a guard file, re-checking it is still the same stale lock: two processes
 * finding the same stale lock must not each remove the other's fresh one.
 */
function takeOverStale(path: string, stale: EmbeddedLockHolder | "unreadable"): void {
  const guard = `${path}.takeover`;
  try {
    writeFileSync(guard, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (statMtime(guard) ?? Date.now());
    if (age > STALE_GUARD_MS) unlinkQuietly(guard);
    return;
  }
  try {
    const again = readLockFile(path);
    const same =
      stale === "unreadable"
        ? again === "unreadable"
        : typeof again === "object" && again.token === stale.token;
    if (same) unlinkQuietly(path);
  } finally {
    unlinkQuietly(guard);
  }
}

function readLockFile(path: string): EmbeddedLockHolder | "missing" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as EmbeddedLockHolder;
    if (Number.isInteger(parsed.pid) && typeof parsed.token === "string") return parsed;
  } catch {
    // Not ours or damaged: nobody can be reached through it, so it is treated as stale.
  }
  return "unreadable";
}

/** Whether the holder's process still runs (signal 0 checks without signalling). */
function isAlive(holder: EmbeddedLockHolder): boolean {
  const bootId = currentBootId();
  if (holder.bootId && bootId && holder.bootId !== bootId) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let bootId: string | null | undefined;
function currentBootId(): string | undefined {
  if (bootId === undefined) {
    try {
      bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      bootId = null; // not Linux: pids alone decide
    }
  }
  return bootId ?? undefined;
}

function statMtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
