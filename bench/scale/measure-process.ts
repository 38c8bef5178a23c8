import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux almost everywhere). */
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/**
 * CPU a process has used so far, user plus system, in ms, from /proc/<pid>/stat (fields 14 and 15; every
 * thread of the process, so V8's garbage collector and workers count too); with `mainThread`, only its
 * main thread's (/proc/<pid>/task/<pid>/stat: the JavaScript that runs, without V8's background threads).
 * The command name in field 2 may hold spaces, so fields are counted after its closing parenthesis.
 */
export function cpuMs(pid: number, options: { mainThread?: boolean } = {}): number {
  let stat: string;
  try {
    stat = readFileSync(options.mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8");
  } catch (error) {
    throw new Error(`process ${pid} is gone: it exited during the run`, { cause: error });
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name, field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Resident memory of a process in MiB (`VmRSS`, or `VmHWM`, its peak so far), from /proc/<pid>/status. */
export function rssMiB(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

/** The command line a process runs, for checking that the sampled pid is the one doing the work. */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
}

/** Samples a process's resident memory every `everyMs` until stopped: the last and the highest sample. */
export function sampleRss(
  pid: number,
  everyMs = 500,
): { latest: () => number; peak: () => number; stop: () => void } {
  let latest = rssMiB(pid);
  let peak = latest;
  const timer = setInterval(() => {
    try {
      latest = rssMiB(pid);
      peak = Math.max(peak, latest);
    } catch {
      // The process has exited; keep the last samples.
      clearInterval(timer);
    }
  }, everyMs);
  return { latest: () => latest, peak: () => peak, stop: () => clearInterval(timer) };
}
