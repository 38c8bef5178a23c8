import { UsageError } from "./cli-errors.ts";
import { commandUsage, helpRequested, USAGE } from "./usage.ts";

/**
 * Errors an operator can fix, by their fixed class names (typed errors, each with a fixed `name`):
 * printed as one line, no stack, exit 1. Matching names lets `junction help` load none of their modules.
 */
const OPERATOR_ERRORS = new Set([
  "ConfigError",
  "DeploymentFileError",
  "ListenError",
  "AnvilStartError",
  "OperatorError",
  "KeyPolicyError",
  "EmbeddedLockError",
  "StoreMigrationError",
  "RegistryInputError",
  "NodeStartError",
]);

/** The first words of the operator commands (src/cli/operator-commands.ts). */
const OPERATOR_GROUPS = new Set(["workspace", "key", "partner", "transfer", "webhooks"]);

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? "help";
  const help = command === "help" ? USAGE : helpRequested(argv);
  if (help) {
    process.stdout.write(help);
    return;
  }
  if (command === "start" || command === "devnet") {
    const { runServiceCommand } = await import("./service-commands.ts");
    return runServiceCommand(command, argv.slice(1));
  }
  if (OPERATOR_GROUPS.has(command)) {
    const { runOperatorCommand } = await import("./operator-commands.ts");
    await runOperatorCommand(argv);
    // Exit now rather than when idle HTTP keep-alive sockets to the RPC happen to close.
    await flushed();
    process.exit(0);
  }
  if (command === "deploy") {
    const { runDeployCommand } = await import("./deploy.ts");
    await runDeployCommand(argv.slice(1));
    await flushed();
    process.exit(0);
  }
  throw new UsageError(`unknown command "${command}"`);
}

/** Usage lines for a command (`key create`), a group (`key`), or everything. */
const usageFor = (command: string | undefined): string => commandUsage(command) ?? USAGE;

const flushed = () => new Promise<void>((resolve) => process.stdout.write("", () => resolve()));

main(process.argv.slice(2)).catch(async (error: unknown) => {
  let code = 1;
  if (error instanceof UsageError) {
    process.stderr.write(`junction: ${error.message}\n\n${usageFor(error.command)}`);
    code = 2;
  } else if (error instanceof Error && OPERATOR_ERRORS.has(error.name)) {
    process.stderr.write(`junction: ${error.message}\n`);
  } else {
    process.stderr.write(`junction: unexpected error\n${(error as Error)?.stack ?? String(error)}\n`);
  }
  await flushed();
  process.exit(code);
});
