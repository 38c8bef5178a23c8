import type { z } from "zod";

type Issue = z.core.$ZodIssue;

/** How many problems one message lists; the operator fixes them and runs again. */
const MAX_LISTED = 3;

/**
 * What is wrong with an operator's file, field by field (`uniswap.v3Factory: required`), for the deploy plan
 * and the deployment file. A union (a preset name or an object of addresses) is described by the branch the
 * input was meant for, so a missing nested field is named instead of the union's bare "Invalid input".
 */
export function describeIssues(error: z.ZodError, input: unknown): string {
  const issues = error.issues.flatMap((issue) => flatten(issue, []));
  const listed = issues.slice(0, MAX_LISTED).map((issue) => describe(issue, input));
  const more = issues.length - listed.length;
  return `${listed.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}

type Located = { path: PropertyKey[]; issue: Issue };

function flatten(issue: Issue, prefix: PropertyKey[]): Located[] {
  const path = [...prefix, ...issue.path];
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [{ path, issue }];
  const branch = meantBranch(issue.errors);
  return branch.flatMap((inner) => flatten(inner, path));
}

/**
 * The branch whose shape the input has: one whose every issue is inside the value (a field of an object)
 * first, then one that did not refuse the value's type outright, else the first.
 */
function meantBranch(branches: Issue[][]): Issue[] {
  const inside = branches.find((issues) => issues.every((issue) => issue.path.length > 0));
  if (inside) return inside;
  const sameType = branches.find((issues) =>
    issues.every((issue) => issue.path.length > 0 || issue.code !== "invalid_type"),
  );
  return sameType ?? branches[0]!;
}

/** `path: message`; a field the input does not have at all is `required`, whatever its type would be. */
function describe({ path, issue }: Located, input: unknown): string {
  const where = path.length > 0 ? path.map(String).join(".") : "(root)";
  const missing = issue.code !== "custom" && path.length > 0 && valueAt(input, path) === undefined;
  return `${where}: ${missing ? "required" : issue.message.replace(/^Invalid input: /, "")}`;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
