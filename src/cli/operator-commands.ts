import { UsageError } from "./cli-errors.ts";
import type { OperatorContext } from "./operator-context.ts";
import { parseFlags, required } from "./parse-flags.ts";
import { COMMAND_USAGE } from "./usage.ts";

const json = { type: "boolean" } as const;
const text = { type: "string" } as const;

/**
 * Runs `junction workspace ...` and `junction key ...`: parses the flags strictly first (a usage error
 * loads nothing else), then runs the command against the service's database and chain.
 */
export async function runOperatorCommand(argv: string[]): Promise<void> {
  const [group, action, ...args] = argv;
  const command = `${group} ${action ?? ""}`.trim();
  switch (command) {
    case "workspace create": {
      const { flags } = parseFlags(command, args, { name: text, code: text, json });
      const input = { name: required(command, flags, "name"), code: required(command, flags, "code") };
      const { createWorkspaceCommand, checkCreateInput } = await import("./workspace-commands.ts");
      const checked = checkCreateInput(input);
      return run(flags.json, (ctx) => createWorkspaceCommand(ctx, checked));
    }
    case "workspace activate": {
      const { flags } = parseFlags(command, args, {
        code: text,
        owner: text,
        recipient: text,
        fee: text,
        json,
      });
      const input = {
        code: required(command, flags, "code"),
        owner: required(command, flags, "owner"),
        recipient: required(command, flags, "recipient"),
        fee: required(command, flags, "fee"),
      };
      const { activateWorkspaceCommand, checkActivateInput } = await import("./workspace-commands.ts");
      const checked = checkActivateInput(input);
      return run(flags.json, (ctx) => activateWorkspaceCommand(ctx, checked));
    }
    case "workspace list": {
      const { flags } = parseFlags(command, args, { json });
      const { listWorkspacesCommand } = await import("./workspace-commands.ts");
      return run(flags.json, listWorkspacesCommand);
    }
    case "key create": {
      const { flags } = parseFlags(command, args, {
        workspace: text,
        name: text,
        scopes: text,
        expires: text,
        json,
      });
      const input = {
        workspace: required(command, flags, "workspace"),
        name: required(command, flags, "name"),
        scopes: required(command, flags, "scopes"),
        ...(flags.expires !== undefined ? { expires: flags.expires } : {}),
      };
      const { createKeyCommand, checkKeyInput } = await import("./key-commands.ts");
      const checked = checkKeyInput(input);
      return run(flags.json, (ctx) => createKeyCommand(ctx, checked));
    }
    case "key list": {
      const { flags } = parseFlags(command, args, { workspace: text, json });
      const input = { workspace: required(command, flags, "workspace") };
      const { listKeysCommand } = await import("./key-commands.ts");
      return run(flags.json, (ctx) => listKeysCommand(ctx, input));
    }
    case "key revoke": {
      const { flags, positionals } = parseFlags(command, args, { json }, 1);
      if (!positionals[0]) throw new UsageError("missing the key id to revoke", command);
      const input = { key: positionals[0] };
      const { revokeKeyCommand } = await import("./key-commands.ts");
      return run(flags.json, (ctx) => revokeKeyCommand(ctx, input));
    }
    default: {
      const known = Object.keys(COMMAND_USAGE).filter((name) => name.startsWith(`${group} `));
      throw new UsageError(
        action
          ? `unknown command "${command}"`
          : `"${group}" needs a subcommand: ${known.map((k) => k.split(" ")[1]).join(", ")}`,
        known.length > 0 ? group : undefined,
      );
    }
  }
}

async function run(json: boolean | undefined, command: (ctx: OperatorContext) => Promise<void>) {
  const { withOperatorContext } = await import("./operator-context.ts");
  return withOperatorContext(json ?? false, command);
}
