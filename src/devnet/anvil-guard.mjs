#!/usr/bin/env node
// Runs anvil as a grandchild and kills it as soon as our parent goes away, however it goes away.
// The parent holds the write end of our stdin; the kernel closes it when the parent exits, even on SIGKILL,
// so "stdin ended" is a reliable parent-death signal on every platform (unlike PR_SET_PDEATHSIG).
import { spawn } from "node:child_process";

const [bin, ...args] = process.argv.slice(2);
const child = spawn(bin, args, { stdio: ["ignore", "inherit", "inherit"] });

let stopping = false;
function stop({ patient = false } = {}) {
  if (stopping) return;
  stopping = true;
  child.kill("SIGTERM");
  // anvil exits promptly on SIGTERM; never leave it behind if it does not, unless it was asked to take its time.
  if (!patient) setTimeout(() => child.kill("SIGKILL"), 3000).unref();
}

// Anything written to stdin is a patient stop, asked for by a parent whose anvil writes its state on exit
// (`--dump-state`): that takes as long as the state is large (minutes for gigabytes), and the parent waits.
process.stdin.on("data", () => stop({ patient: true }));
process.stdin.on("end", () => stop());
process.stdin.on("error", () => stop());
process.stdin.resume();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop());
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on("error", (error) => {
  console.error(`anvil-guard: cannot start ${bin}: ${error.message}`);
  process.exit(127);
});
