// How scripts/solc-wrapper.mjs compiles a large forge build with solc-js: in batches of output files, each
// parsing only what its files import, merged into one compilation's output.
import path from "node:path";

// Files whose output one solc-js call generates, and the sources that call parses: only what those files
// import, directly or not. One solc-js call that parses the whole suite crashes the wasm compiler ("memory
// access out of bounds", "table index is out of bounds") once the sources pass a size (about 1.3 MB,
// 99 files, at 2026-11-26); a call parsing a batch's imports stays far below it. Source ids are then
// renumbered to one numbering for the whole build (the units' sorted order), source maps included, so the
// merged output reads as one compilation's.
export const OUTPUT_BATCH = 12;

export function compileInBatches(solc, input, importCallback) {
  const parsed = JSON.parse(input);
  const selection = parsed.settings?.outputSelection ?? {};
  const files = Object.keys(selection);
  if (files.length <= OUTPUT_BATCH || "*" in selection)
    return solc.compile(input, { import: importCallback });
  const imports = resolveImports(parsed, importCallback);
  const units = Object.keys(parsed.sources).sort();
  const globalId = new Map(units.map((unit, id) => [unit, id]));
  const merged = { contracts: {}, sources: {}, errors: [] };
  const seen = new Set();
  for (let start = 0; start < files.length; start += OUTPUT_BATCH) {
    const outputs = files.slice(start, start + OUTPUT_BATCH);
    const closure = importClosure(outputs, imports);
    const request = {
      ...parsed,
      sources: Object.fromEntries([...closure].map((unit) => [unit, parsed.sources[unit]])),
      settings: {
        ...parsed.settings,
        outputSelection: Object.fromEntries(outputs.map((file) => [file, selection[file]])),
      },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(request), { import: importCallback }));
    const renumber = new Map(
      Object.entries(output.sources ?? {}).map(([unit, source]) => [source.id, globalId.get(unit)]),
    );
    const parsedCount = closure.size;
    for (const [unit, contracts] of Object.entries(output.contracts ?? {})) {
      for (const contract of Object.values(contracts)) {
        for (const code of [contract.evm?.bytecode, contract.evm?.deployedBytecode]) {
          if (code?.sourceMap)
            code.sourceMap = renumberSourceMap(code.sourceMap, renumber, parsedCount, units.length);
        }
      }
      merged.contracts[unit] = contracts;
    }
    for (const [unit, source] of Object.entries(output.sources ?? {}))
      merged.sources[unit] = { ...source, id: globalId.get(unit) };
    for (const error of output.errors ?? []) {
      const key = error.formattedMessage ?? error.message;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.errors.push(error);
    }
  }
  if (merged.errors.length === 0) delete merged.errors;
  return JSON.stringify(merged);
}

/** A source map with its file indexes in the whole build's numbering (compiler-generated ones after it). */
export function renumberSourceMap(sourceMap, renumber, parsedCount, unitCount) {
  return sourceMap
    .split(";")
    .map((entry) => {
      const fields = entry.split(":");
      if (fields.length < 3 || fields[2] === "" || fields[2] === "-1") return entry;
      const id = Number(fields[2]);
      fields[2] = String(renumber.get(id) ?? id - parsedCount + unitCount);
      return fields.join(":");
    })
    .join(";");
}

export function importClosure(outputs, imports) {
  const closure = new Set();
  const pending = [...outputs];
  while (pending.length > 0) {
    const unit = pending.pop();
    if (closure.has(unit)) continue;
    closure.add(unit);
    pending.push(...(imports.get(unit) ?? []));
  }
  return closure;
}

/**
 * Every import of every source, resolved the way solc names it (relative to the importing unit, else
 * through the remappings); sources forge did not send are read like the import callback reads them.
 */
export function resolveImports(parsed, importCallback) {
  const sources = parsed.sources;
  const remappings = (parsed.settings?.remappings ?? []).map((entry) => {
    const [prefix, target] = entry.replace(/^[^:=]*:/, "").split("=");
    return { prefix, target };
  });
  const imports = new Map();
  const pending = Object.keys(sources);
  while (pending.length > 0) {
    const unit = pending.pop();
    if (imports.has(unit)) continue;
    const content = sources[unit]?.content;
    const names = [];
    imports.set(unit, names);
    if (typeof content !== "string") continue;
    for (const match of content.matchAll(/^\s*import\s+(?:[^;]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
      const name = importedUnit(unit, match[1], remappings);
      names.push(name);
      if (!sources[name]) {
        const found = importCallback(name);
        if (found.contents === undefined) continue; // solc reports the missing file itself
        sources[name] = { content: found.contents };
      }
      pending.push(name);
    }
  }
  return imports;
}

export function importedUnit(unit, target, remappings) {
  if (target.startsWith("./") || target.startsWith("../"))
    return path.posix.normalize(path.posix.join(path.posix.dirname(unit), target));
  let best;
  for (const remapping of remappings)
    if (target.startsWith(remapping.prefix) && (!best || remapping.prefix.length > best.prefix.length))
      best = remapping;
  return best ? best.target + target.slice(best.prefix.length) : target;
}
