/**
 * Where an operator command prints. With `--json`, stdout carries exactly one JSON object (bigints as
 * decimal strings) so scripts can parse it; without, readable lines. Remarks go to stderr either way.
 */
export type Output = {
  json: boolean;
  result: (value: Record<string, unknown>, human: string[]) => void;
  note: (line: string) => void;
};

export function createOutput(json: boolean): Output {
  return {
    json,
    result: (value, human) => {
      process.stdout.write(
        json
          ? `${JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v))}\n`
          : `${human.join("\n")}\n`,
      );
    },
    note: (line) => process.stderr.write(`${line}\n`),
  };
}

/** Aligned `label  value` lines, indented under a heading. */
export function fields(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
}
