import { cpus, loadavg } from "node:os";

/**
 * The line every benchmark prints first, so numbers are only compared across like machines (the load
 * average says whether something else was competing for the cores).
 */
export function machineLine(extra = ""): string {
  const cpu = cpus();
  const load = loadavg()[0]!.toFixed(1);
  // V8's heap flags change garbage collection, and so the times: say which ones this run had.
  const heap = process.execArgv.filter((flag) => flag.startsWith("--max-"));
  const node = `Node ${process.version}${heap.length > 0 ? ` (${heap.join(" ")})` : ""}`;
  return `Machine: ${cpu[0]?.model ?? "unknown cpu"}, ${cpu.length} cores, ${node}, load average ${load} when printed${extra ? `; ${extra}` : ""}.`;
}

/** A markdown table from a header row and rows of cells; cells after the first are right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ];
}
