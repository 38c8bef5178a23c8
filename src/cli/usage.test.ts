import { describe, expect, it } from "vitest";
import { COMMAND_USAGE, helpRequested, USAGE } from "./usage.ts";

describe("--help and -h", () => {
  const commands = ["start", "devnet", ...Object.keys(COMMAND_USAGE)];

  it("answer every command with its own usage line, wherever they stand among its flags", () => {
    for (const command of commands) {
      const words = command.split(" ");
      for (const flag of ["--help", "-h"]) {
        const help = helpRequested([...words, flag]);
        expect(help, `${command} ${flag}`).toMatch(new RegExp(`^Usage:\\n {2}junction ${command}\\b`));
        expect(helpRequested([...words, "--json", flag]), command).toBe(help);
      }
    }
    expect(helpRequested(["deploy", "--plan", "plan.json", "--help"])).toBe(helpRequested(["deploy", "-h"]));
  });

  it("answer a group with its commands, and no command with the whole help", () => {
    const group = helpRequested(["partner", "key", "--help"])!;
    expect(group.match(/ {2}junction partner key /g)).toHaveLength(3);
    const webhooks = helpRequested(["webhooks", "-h"])!;
    for (const action of ["add", "list", "test", "deliveries", "redeliver", "rotate", "remove"])
      expect(webhooks).toContain(`  junction webhooks ${action} --workspace <id|code>`);
    expect(helpRequested(["--help"])).toBe(USAGE);
    expect(helpRequested(["-h"])).toBe(USAGE);
    expect(helpRequested(["help", "--help"])).toBe(USAGE);
  });

  it("leave an unknown command, arguments after --, and no help flag to the command", () => {
    expect(helpRequested(["bogus", "--help"])).toBeUndefined();
    expect(helpRequested(["key", "revoke", "--", "-h"])).toBeUndefined();
    expect(helpRequested(["deploy", "--plan", "plan.json"])).toBeUndefined();
  });
});
