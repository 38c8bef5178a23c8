import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COMMAND_USAGE } from "../../src/cli/usage.ts";

function junction(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["bin/junction.js", ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** `node bin/junction.js <command> --help` as an operator types it: usage on stdout, exit 0, nothing run. */
describe("junction <command> --help", () => {
  it("prints every command's usage and exits 0", async () => {
    for (const command of ["start", "devnet", ...Object.keys(COMMAND_USAGE)]) {
      const run = await junction(...command.split(" "), command === "deploy" ? "-h" : "--help");
      expect(run.code, `${command}: ${run.stderr}`).toBe(0);
      expect(run.stderr, command).toBe("");
      expect(run.stdout, command).toMatch(new RegExp(`^Usage:\\n {2}junction ${command}\\b`));
    }
    const deploy = await junction("deploy", "--help");
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toContain(COMMAND_USAGE.deploy);
  }, 120_000);
});
