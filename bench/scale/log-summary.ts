import { readFileSync, statSync } from "node:fs";

/** pino's numeric levels. */
const WARN = 40;
const ERROR = 50;

export type LogSummary = {
  path: string;
  bytes: number;
  lines: number;
  /** Warning and error lines by level and message text (the message only: no fields, no stack). */
  counts: { level: "warn" | "error"; message: string; count: number }[];
};

/**
 * What the service's log says about a run: its size, and its warning and error lines counted by message,
 * most frequent first. Progress lines on stderr are not JSON and are not counted.
 */
export function summarizeLog(path: string): LogSummary {
  const text = readFileSync(path, "utf8");
  const counts = new Map<string, { level: "warn" | "error"; message: string; count: number }>();
  let lines = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    lines++;
    if (!line.startsWith("{")) continue;
    let entry: { level?: number; msg?: string };
    try {
      entry = JSON.parse(line) as { level?: number; msg?: string };
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < WARN) continue;
    const level = (entry.level ?? 0) >= ERROR ? "error" : "warn";
    const key = `${level}\0${entry.msg ?? ""}`;
    const found = counts.get(key) ?? { level, message: entry.msg ?? "(no message)", count: 0 };
    found.count++;
    counts.set(key, found);
  }
  return {
    path,
    bytes: statSync(path).size,
    lines,
    counts: [...counts.values()].sort((a, b) => b.count - a.count),
  };
}
