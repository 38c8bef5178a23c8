// Types of scripts/solc-batches.mjs, for its tests.
export type ImportCallback = (name: string) => { contents?: string; error?: string };
export type Solc = { compile(input: string, callbacks?: { import: ImportCallback }): string };
export const OUTPUT_BATCH: number;
export function compileInBatches(solc: Solc, input: string, importCallback: ImportCallback): string;
export function renumberSourceMap(
  sourceMap: string,
  renumber: Map<number, number | undefined>,
  parsedCount: number,
  unitCount: number,
): string;
export function importClosure(outputs: string[], imports: Map<string, string[]>): Set<string>;
export function resolveImports(
  parsed: { sources: Record<string, { content?: string }>; settings?: { remappings?: string[] } },
  importCallback: ImportCallback,
): Map<string, string[]>;
export function importedUnit(
  unit: string,
  target: string,
  remappings: { prefix: string; target: string }[],
): string;
