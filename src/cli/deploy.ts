import { UsageError } from "./cli-errors.ts";
import { deployCommand } from "./deploy-command.ts";
import { readDeployPlan } from "./deploy-plan.ts";
import { createOutput } from "./output.ts";
import { parseFlags, required } from "./parse-flags.ts";

/** Parses `junction deploy` flags (strictly, before anything is read) and runs it. */
export async function runDeployCommand(args: string[]): Promise<void> {
  const text = { type: "string" } as const;
  const flag = { type: "boolean" } as const;
  const { flags } = parseFlags("deploy", args, {
    plan: text,
    out: text,
    rpc: text,
    keystore: text,
    "dry-run": flag,
    json: flag,
  });
  const planPath = required("deploy", flags, "plan");
  const out = required("deploy", flags, "out");
  const rpcUrl = flags.rpc ?? process.env.JUNCTION_RPC_URL;
  if (!rpcUrl) throw new UsageError("missing --rpc (or JUNCTION_RPC_URL)", "deploy");
  await deployCommand(createOutput(flags.json ?? false), {
    plan: readDeployPlan(planPath),
    out,
    rpcUrl,
    ...(flags.keystore ? { keystore: flags.keystore } : {}),
    dryRun: flags["dry-run"] ?? false,
  });
}
