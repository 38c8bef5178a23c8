import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Rules the code cites must be readable in the repository: prose in the code (comments, and string literals
 * such as test titles and OpenAPI descriptions) cites `docs/rules.md, <id>`, never the user's specification
 * document, which is not in the repository, nor any other document outside it (our design notes, style
 * guide or issue tracker): it cites a page under docs/ that exists, or says the thing in place. Every cited id must be defined in docs/rules.md, where a rule is
 * a line starting with its bold id (`- **comparison rule 12**: ...`), and every file the page links to must
 * exist.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RULES_PAGE = path.join(ROOT, "docs", "rules.md");
const THIS_FILE = fileURLToPath(import.meta.url);
const SCANNED = ["src", "bench", "test", "scripts", "contracts", "packages", "examples", "web"];
/** Build output and generated code, nobody's prose. */
const SKIPPED_DIRS = new Set(["node_modules", "out", "cache", "artifacts", "abis"]);
const SCRIPT = /\.(?:[cm]?ts|[cm]?js)$/;
/** The specification cited by its own name instead of by this page. */
const DIRECT_CITATION = /\bSPEC\b/;
/** Other documents that are not in the repository: design notes, the style guide, the issue tracker. */
const OUTSIDE_CITATION = /\b(?:STYLE|DESIGN)\b|\b[Ii]ssues? #?\d/;
/** A page under docs/ named in prose; it must exist. */
const DOCS_PAGE = /\bdocs\/[\w./-]*\w\.md\b/g;
/** A page and its section, `docs/x.md, "Heading"` or `docs/x.md ("Heading")`: some heading must start so. */
const DOCS_SECTION = /\b(docs\/[\w./-]*\w\.md),? \(?"([^"]+)"/g;

/** The headings of a markdown page, lower case, without backticks. */
function headings(page: string): string[] {
  return [...readFileSync(path.join(ROOT, page), "utf8").matchAll(/^#{1,6} +(.*)$/gm)].map((match) =>
    match[1]!.replaceAll("`", "").toLowerCase(),
  );
}
const CITATION = /docs\/rules\.md,\s*/g;
/** `comparison rule 12`, `history rules 1-6`, `comparison rules 3, 4, 13`, `rules 4 and 5`. */
const NUMBERED = /^((?:[a-z-]+ ){0,2}[a-z-]+) rules? (\d+(?:(?:-|–|, | and )\d+)*)(?!\d)/;

type Prose = { at: number; text: string };

/** The ids docs/rules.md defines: each is the bold text a line starts with. */
function ruleIds(page: string): string[] {
  return [...page.matchAll(/^(?:[ \t]*[-*][ \t]+)?\*\*([^*\n]+)\*\*/gm)].map((match) => match[1]!);
}

/**
 * Reads the ids cited right after `docs/rules.md, `: one id, or several joined by `, `, `; ` or ` and `.
 * Returns what was read, or the text that should have been an id and is not one.
 */
function citedIds(after: string, ids: ReadonlySet<string>): { ids: string[]; unknown?: string } {
  const plainIds = [...ids].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  let rest = after;
  for (let first = true; ; first = false) {
    // A defined id first, so `limits and comparison rules 6, 11` reads as two citations.
    const plain = plainIds.find((id) => rest.startsWith(id) && !/[A-Za-z0-9]/.test(rest[id.length] ?? ""));
    const numbered = plain ? null : NUMBERED.exec(rest);
    let read: string[] | undefined;
    let length = 0;
    if (plain) [read, length] = [[plain], plain.length];
    else if (numbered) {
      const [text, group, list] = numbered;
      read = expand(list!).map((n) => `${group} rule ${n}`);
      length = text.length;
      if (read.length === 0) return { ids: found, unknown: text };
    }
    if (!read) {
      if (first) return { ids: found, unknown: rest.slice(0, 40) };
      break;
    }
    const unknown = read.find((id) => !ids.has(id));
    if (unknown) return { ids: found, unknown };
    found.push(...read);
    rest = rest.slice(length);
    const separator = /^(?:, |; | and )/.exec(rest);
    if (!separator) break;
    rest = rest.slice(separator[0].length);
  }
  return { ids: found };
}

/** `3, 4, 13` and `1-6` into their numbers; a backwards range is no numbers. */
function expand(list: string): number[] {
  return list.split(/, | and /).flatMap((item) => {
    const [from = 0, to = from] = item.split(/[-–]/).map(Number);
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  });
}

/** A comment's words, without its delimiters, leading `*` and line breaks. */
function commentText(raw: string): string {
  return raw
    .replace(/^\/\*+|\*+\/$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*(?:\/\/+|\*+)/, ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Comments in trivia (whitespace and comments only); consecutive line comments read as one. */
function triviaComments(text: string, from: number, to: number, out: Prose[]): void {
  let i = from;
  let run: { at: number; parts: string[] } | undefined;
  const flush = () => {
    if (run) out.push({ at: run.at, text: commentText(run.parts.join("\n")) });
    run = undefined;
  };
  while (i < to) {
    if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      const stop = end === -1 || end > to ? to : end;
      run ??= { at: i, parts: [] };
      run.parts.push(text.slice(i, stop));
      i = stop;
    } else if (text.startsWith("/*", i)) {
      flush();
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? to : end + 2;
      out.push({ at: i, text: commentText(text.slice(i, stop)) });
      i = stop;
    } else {
      if (!/\s/.test(text[i]!)) flush();
      i++;
    }
  }
  flush();
}

const STRING_KINDS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
]);

/** Keywords a regular expression literal may follow; any other word ends an operand (`x.type / 2`). */
const BEFORE_OPERAND = new Set([
  ts.SyntaxKind.ReturnKeyword,
  ts.SyntaxKind.TypeOfKeyword,
  ts.SyntaxKind.InstanceOfKeyword,
  ts.SyntaxKind.InKeyword,
  ts.SyntaxKind.OfKeyword,
  ts.SyntaxKind.NewKeyword,
  ts.SyntaxKind.DeleteKeyword,
  ts.SyntaxKind.VoidKeyword,
  ts.SyntaxKind.ThrowKeyword,
  ts.SyntaxKind.CaseKeyword,
  ts.SyntaxKind.DoKeyword,
  ts.SyntaxKind.ElseKeyword,
]);
const ENDS_OPERAND = new Set([
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ...STRING_KINDS,
]);
const endsOperand = (kind: ts.SyntaxKind) =>
  ENDS_OPERAND.has(kind) ||
  kind === ts.SyntaxKind.Identifier ||
  (kind >= ts.SyntaxKind.FirstKeyword && kind <= ts.SyntaxKind.LastKeyword && !BEFORE_OPERAND.has(kind));

/**
 * Comments and string literals of a TypeScript or JavaScript file, from the TypeScript scanner (a full parse
 * of every file would make this test slow): a `/` after an operand divides, anywhere else it starts a regular
 * expression; a `}` closing a template's `${` continues the template.
 */
function scriptProse(text: string): Prose[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const out: Prose[] = [];
  const templates: number[] = [];
  let braces = 0;
  let previous = ts.SyntaxKind.Unknown;
  let lineComments: { at: number; parts: string[] } | undefined;
  const flush = () => {
    if (lineComments) out.push({ at: lineComments.at, text: commentText(lineComments.parts.join("\n")) });
    lineComments = undefined;
  };
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      lineComments ??= { at: scanner.getTokenStart(), parts: [] };
      lineComments.parts.push(scanner.getTokenText());
      continue;
    }
    if (kind === ts.SyntaxKind.NewLineTrivia || kind === ts.SyntaxKind.WhitespaceTrivia) continue;
    flush();
    if (kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      out.push({ at: scanner.getTokenStart(), text: commentText(scanner.getTokenText()) });
      continue;
    }
    if (
      (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) &&
      !endsOperand(previous)
    )
      kind = scanner.reScanSlashToken();
    if (kind === ts.SyntaxKind.OpenBraceToken) braces++;
    else if (kind === ts.SyntaxKind.CloseBraceToken) {
      if (templates.at(-1) === braces) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
      } else braces--;
    } else if (kind === ts.SyntaxKind.TemplateHead) templates.push(braces);
    if (STRING_KINDS.has(kind)) out.push({ at: scanner.getTokenStart(), text: scanner.getTokenText() });
    previous = kind;
  }
  flush();
  return out;
}

/** Comments and string literals of a Solidity file (no regex or template literals to confuse a scan). */
function solidityProse(text: string): Prose[] {
  const out: Prose[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      let end = i + 1;
      while (end < text.length && text[end] !== c) end += text[end] === "\\" ? 2 : 1;
      out.push({ at: i, text: text.slice(i, end + 1) });
      i = end + 1;
    } else if (text.startsWith("//", i) || text.startsWith("/*", i)) {
      // Trivia runs to the next code character; triviaComments stops at it.
      let end = i;
      while (end < text.length) {
        if (text.startsWith("//", end))
          end = text.indexOf("\n", end) === -1 ? text.length : text.indexOf("\n", end);
        else if (text.startsWith("/*", end))
          end = text.indexOf("*/", end + 2) === -1 ? text.length : text.indexOf("*/", end + 2) + 2;
        else if (/\s/.test(text[end]!)) end++;
        else break;
      }
      triviaComments(text, i, end, out);
      i = end;
    } else {
      i++;
    }
  }
  return out;
}

/** Source files of the scanned folders, this one aside (it has to name what it looks for). */
function scannedFiles(): string[] {
  const skipped = (file: string) =>
    path
      .relative(ROOT, file)
      .split(path.sep)
      .some((p) => SKIPPED_DIRS.has(p));
  return SCANNED.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && (SCRIPT.test(entry.name) || entry.name.endsWith(".sol")))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => !skipped(file) && file !== THIS_FILE),
  );
}

describe("docs/rules.md", () => {
  const page = readFileSync(RULES_PAGE, "utf8");
  const ids = ruleIds(page);
  const idSet = new Set(ids);

  it("defines each rule id once", () => {
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("links only to files that exist", () => {
    const targets = [...page.matchAll(/\]\((\.\.\/[^)#\s]+)/g)].map((match) => match[1]!);
    expect(targets.length).toBeGreaterThan(50);
    const missing = targets.filter((target) => !existsSync(path.resolve(path.dirname(RULES_PAGE), target)));
    expect(missing).toEqual([]);
  });

  it("is what the code cites, by ids it defines", () => {
    const offenders: string[] = [];
    let citations = 0;
    for (const file of scannedFiles()) {
      const text = readFileSync(file, "utf8");
      // Only a file that mentions either can offend; reading the others' prose would only cost time.
      if (!DIRECT_CITATION.test(text) && !OUTSIDE_CITATION.test(text) && !text.includes("docs/")) continue;
      const where = (at: number) => `${path.relative(ROOT, file)}:${text.slice(0, at).split("\n").length}`;
      for (const prose of file.endsWith(".sol") ? solidityProse(text) : scriptProse(text)) {
        if (DIRECT_CITATION.test(prose.text))
          offenders.push(`${where(prose.at)}: cites the specification directly; cite docs/rules.md, <id>`);
        if (OUTSIDE_CITATION.test(prose.text))
          offenders.push(`${where(prose.at)}: cites a document outside the repository; cite docs/ or say it`);
        for (const page of prose.text.match(DOCS_PAGE) ?? [])
          if (!existsSync(path.join(ROOT, page))) offenders.push(`${where(prose.at)}: no page ${page}`);
        for (const [, page, section] of prose.text.matchAll(DOCS_SECTION))
          if (
            existsSync(path.join(ROOT, page!)) &&
            !headings(page!).some((h) => h.startsWith(section!.toLowerCase()))
          )
            offenders.push(`${where(prose.at)}: no section "${section}" in ${page}`);
        for (const match of prose.text.matchAll(CITATION)) {
          citations++;
          const cited = citedIds(prose.text.slice(match.index + match[0].length), idSet);
          if (cited.unknown !== undefined)
            offenders.push(`${where(prose.at)}: no rule "${cited.unknown}" in docs/rules.md`);
        }
      }
    }
    expect(offenders).toEqual([]);
    // The scan really reads the code's comments: it sees the citations it checks.
    expect(citations).toBeGreaterThan(50);
  });
});

describe("citation reading", () => {
  const ids = new Set([
    "comparison rule 3",
    "comparison rule 4",
    "comparison rule 13",
    "limits",
    "errors: builder",
  ]);

  it("reads single ids, lists and ranges, and stops at prose", () => {
    expect(citedIds("comparison rules 3, 4, 13). The", ids)).toEqual({
      ids: ["comparison rule 3", "comparison rule 4", "comparison rule 13"],
    });
    expect(citedIds("comparison rules 3-4 and limits: 96", ids)).toEqual({
      ids: ["comparison rule 3", "comparison rule 4", "limits"],
    });
    expect(citedIds("errors: builder, 404)", ids)).toEqual({ ids: ["errors: builder"] });
  });

  it("names what is not an id", () => {
    expect(citedIds("comparison rule 1)", ids).unknown).toBe("comparison rule 1");
    expect(citedIds("comparison rule 31)", ids).unknown).toBe("comparison rule 31");
    expect(citedIds("limit 96", ids).unknown).toBe("limit 96");
  });

  it("finds comments and strings, not code that looks like them", () => {
    const code = [
      'const url = "http://x/*y*/"; // one',
      "// two,",
      "// continued",
      "const re = /\\/\\/ not a comment/;",
      "const half = total / 2; // four",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'const t = `x ${ { a: "/*" }.a } y // not a comment`;',
      "/** five",
      " * docs/rules.md,",
      " * limits */",
    ].join("\n");
    expect(scriptProse(code).map((prose) => prose.text)).toEqual([
      '"http://x/*y*/"',
      "one two, continued",
      "four",
      "`x ${",
      '"/*"',
      "} y // not a comment`",
      "five docs/rules.md, limits",
    ]);
    const solidity = 'string s = "// no"; /// one\n/// two\nuint x; /* three */';
    expect(solidityProse(solidity).map((prose) => prose.text)).toEqual(['"// no"', "one two", "three"]);
  });
});
