import { parseArgs } from "node:util";
import { UsageError } from "./cli-errors.ts";

type FlagSpec = Record<string, { type: "string" | "boolean" }>;
type Parsed<T extends FlagSpec> = {
  [K in keyof T]?: T[K]["type"] extends "boolean" ? boolean : string;
};

/**
 * Strict flag parsing for one command (node:util parseArgs): an unknown flag, a missing value or a stray
 * argument is a UsageError naming the command, so the operator sees its usage and exit code 2.
 */
export function parseFlags<T extends FlagSpec>(
  command: string,
  args: string[],
  options: T,
  positionals = 0,
): { flags: Parsed<T>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (error) {
    // parseArgs reports bad input with ERR_PARSE_ARGS_* codes; anything else is ours.
    if (String((error as NodeJS.ErrnoException).code ?? "").startsWith("ERR_PARSE_ARGS"))
      throw new UsageError((error as Error).message, command);
    throw error;
  }
  if (parsed.positionals.length > positionals)
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`, command);
  return { flags: parsed.values as Parsed<T>, positionals: parsed.positionals };
}

/** The value of a required string flag. */
export function required(command: string, flags: Record<string, unknown>, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`missing --${name}`, command);
  return value;
}
