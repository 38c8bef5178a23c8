import { UsageError } from "./cli-errors.ts";
import type { OperatorContext } from "./operator-context.ts";
import { parseFlags, required } from "./parse-flags.ts";
import { COMMAND_USAGE } from "./usage.ts";

const json = { type: "boolean" } as const;
const text = { type: "string" } as const;

/**
 * Runs `junction workspace ...`, `junction key ...`, `junction partner key ...`,
 * `junction transfer key ...` and `junction webhooks ...`: parses the flags
 * strictly first (a usage error loads nothing else), then runs the command against the service's database
 * and chain.
 */
export async function runOperatorCommand(argv: string[]): Promise<void> {
  const [group = "", ...rest] = argv;
  // `partner key <action>` and `transfer key <action>` are one word deeper than `key <action>`.
  const depth = group === "partner" || group === "transfer" ? 2 : 1;
  const flagAt = rest.findIndex((word) => word.startsWith("-"));
  const words = rest.slice(0, flagAt === -1 ? depth : Math.min(depth, flagAt));
  const args = rest.slice(words.length);
  const command = [group, ...words].join(" ");
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
    case "workspace plan": {
      const { flags } = parseFlags(command, args, { code: text, plan: text, json });
      const input = { code: required(command, flags, "code"), plan: required(command, flags, "plan") };
      const { setPlanCommand, checkPlanInput } = await import("./workspace-commands.ts");
      const checked = checkPlanInput(input);
      return run(flags.json, (ctx) => setPlanCommand(ctx, checked));
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
      const { builderKeyCommands } = await import("./key-commands.ts");
      return run(flags.json, (ctx) => builderKeyCommands.revoke(ctx, input));
    }
    case "partner key create": {
      const { flags } = parseFlags(command, args, {
        name: text,
        swap: { type: "boolean" },
        expires: text,
        json,
      });
      const input = {
        name: required(command, flags, "name"),
        scopes: flags.swap ? ["swap" as const] : [],
        ...(flags.expires !== undefined ? { expires: flags.expires } : {}),
      };
      const { partnerKeyCommands } = await import("./partner-key-commands.ts");
      const checked = partnerKeyCommands.checkInput(input);
      return run(flags.json, (ctx) => partnerKeyCommands.create(ctx, checked));
    }
    case "partner key list": {
      const { flags } = parseFlags(command, args, { json });
      const { partnerKeyCommands } = await import("./partner-key-commands.ts");
      return run(flags.json, (ctx) => partnerKeyCommands.list(ctx));
    }
    case "partner key revoke": {
      const { flags, positionals } = parseFlags(command, args, { json }, 1);
      if (!positionals[0]) throw new UsageError("missing the partner key id to revoke", command);
      const input = { key: positionals[0] };
      const { partnerKeyCommands } = await import("./partner-key-commands.ts");
      return run(flags.json, (ctx) => partnerKeyCommands.revoke(ctx, input));
    }
    case "transfer key create": {
      const { flags } = parseFlags(command, args, { name: text, scopes: text, expires: text, json });
      const { transferKeyCommands, parseTransferScopes } = await import("./transfer-key-commands.ts");
      const input = {
        name: required(command, flags, "name"),
        scopes: parseTransferScopes(required(command, flags, "scopes")),
        ...(flags.expires !== undefined ? { expires: flags.expires } : {}),
      };
      const checked = transferKeyCommands.checkInput(input);
      return run(flags.json, (ctx) => transferKeyCommands.create(ctx, checked));
    }
    case "transfer key list": {
      const { flags } = parseFlags(command, args, { json });
      const { transferKeyCommands } = await import("./transfer-key-commands.ts");
      return run(flags.json, (ctx) => transferKeyCommands.list(ctx));
    }
    case "transfer key revoke": {
      const { flags, positionals } = parseFlags(command, args, { json }, 1);
      if (!positionals[0]) throw new UsageError("missing the transfer key id to revoke", command);
      const input = { key: positionals[0] };
      const { transferKeyCommands } = await import("./transfer-key-commands.ts");
      return run(flags.json, (ctx) => transferKeyCommands.revoke(ctx, input));
    }
    case "webhooks add": {
      const { flags } = parseFlags(command, args, { workspace: text, url: text, events: text, json });
      const { addWebhookCommand, parseEventTypes } = await import("./webhook-commands.ts");
      const input = {
        workspace: required(command, flags, "workspace"),
        url: required(command, flags, "url"),
        ...(flags.events !== undefined ? { events: parseEventTypes(flags.events, command) } : {}),
      };
      return run(flags.json, (ctx) => addWebhookCommand(ctx, input));
    }
    case "webhooks list": {
      const { flags } = parseFlags(command, args, { workspace: text, json });
      const input = { workspace: required(command, flags, "workspace") };
      const { listWebhooksCommand } = await import("./webhook-commands.ts");
      return run(flags.json, (ctx) => listWebhooksCommand(ctx, input));
    }
    case "webhooks test":
    case "webhooks deliveries":
    case "webhooks rotate":
    case "webhooks remove": {
      const { flags } = parseFlags(command, args, { workspace: text, endpoint: text, json });
      const input = {
        workspace: required(command, flags, "workspace"),
        endpoint: required(command, flags, "endpoint"),
      };
      const commands = await import("./webhook-commands.ts");
      const action = {
        "webhooks test": commands.testWebhookCommand,
        "webhooks deliveries": commands.webhookDeliveriesCommand,
        "webhooks rotate": commands.rotateWebhookCommand,
        "webhooks remove": commands.removeWebhookCommand,
      }[command];
      return run(flags.json, (ctx) => action(ctx, input));
    }
    case "webhooks redeliver": {
      const { flags } = parseFlags(command, args, { workspace: text, endpoint: text, delivery: text, json });
      const input = {
        workspace: required(command, flags, "workspace"),
        endpoint: required(command, flags, "endpoint"),
        delivery: required(command, flags, "delivery"),
      };
      const { redeliverWebhookCommand } = await import("./webhook-commands.ts");
      return run(flags.json, (ctx) => redeliverWebhookCommand(ctx, input));
    }
    default:
      throw unknownCommand(command);
  }
}

/**
 * A command that is not one: a group without its subcommand (`key`, `partner key`) lists the subcommands;
 * anything else shows the usage of the longest known group it starts with.
 */
function unknownCommand(command: string): UsageError {
  const names = Object.keys(COMMAND_USAGE);
  const below = names.filter((name) => name.startsWith(`${command} `));
  if (below.length > 0) {
    const next = [...new Set(below.map((name) => name.slice(command.length + 1).split(" ")[0]))];
    return new UsageError(`"${command}" needs a subcommand: ${next.join(", ")}`, command);
  }
  const words = command.split(" ");
  for (let n = words.length - 1; n > 0; n--) {
    const group = words.slice(0, n).join(" ");
    if (names.some((name) => name.startsWith(`${group} `)))
      return new UsageError(`unknown command "${command}"`, group);
  }
  return new UsageError(`unknown command "${command}"`);
}

async function run(json: boolean | undefined, command: (ctx: OperatorContext) => Promise<void>) {
  const { withOperatorContext } = await import("./operator-context.ts");
  return withOperatorContext(json ?? false, command);
}
