import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { BUILDER_CODE_PATTERN } from "../../../builders/builder-code.ts";
import { type HistoryPage, type HistoryResume, readHistoryPage } from "../../../builders/history.ts";
import { decodeHistoryCursor, encodeHistoryCursor } from "../../../builders/history-cursor.ts";
import { BUILDER_LIMITS } from "../../../builders/limits.ts";
import { settlementSources } from "../../../builders/settlement-logs.ts";
import { invalidInput } from "../../../errors/junction-error.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import { BuilderHistoryQuerySchema, BuilderHistorySchema } from "../../schemas/builder-history.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/**
 * Page limits; the service always uses the 1000 blocks and 1000 events of docs/rules.md, history rule 2;
 * tests pass smaller ones.
 */
export type HistoryRouteOptions = { limits?: { blocks: number; events: number } };

/**
 * `GET /api/v2/builders/history` (scope `receipts`, drawing on the receipts quota): a builder's finalized
 * settlement history read from the collector's events, one pinned finalized snapshot per pagination
 * (docs/rules.md, history rules 1-6).
 */
export function registerHistoryRoute(
  app: OpenAPIHono,
  deps: BuilderApiDeps,
  options: HistoryRouteOptions = {},
): void {
  const limits = options.limits ?? {
    blocks: BUILDER_LIMITS.historyPageBlocks,
    events: BUILDER_LIMITS.historyPageEvents,
  };
  const route = createRoute({
    method: "get",
    path: "/api/v2/builders/history",
    tags: ["Builder"],
    summary: "Finalized settlement history of a builder code",
    description: [
      "Scope `receipts`; shares the receipts quota. Reads the `Settled` events of the settlement collector directly (no saved quote records), filtered by builder id.",
      "The first page (no `cursor`) pins the current finalized block (`finalizedThrough`, `snapshotHash`) and starts at the collector's deployment block; each page scans at most 1000 blocks, never past the pinned block, and returns at most 1000 settlements in chain order. Pass `nextCursor` unchanged as `cursor` until it is null, including after an empty page: the cursor is signed and binds the code, the snapshot and the resume position, so a cursor that was altered or belongs to another code is a 400.",
      "Every page checks, after reading, that the pinned block is still canonical; if a reorg replaced it the page is a 409 SNAPSHOT_NOT_CANONICAL: restart pagination without a cursor.",
      "Totals cover the page only, per output token. Suspended builders stay readable; an unregistered code is not an error, it has no settlements.",
    ].join("\n\n"),
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "receipts")] as const,
    request: { query: BuilderHistoryQuerySchema },
    responses: {
      200: {
        description: "One page of finalized settlements",
        content: { "application/json": { schema: BuilderHistorySchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      400: errorResponse(
        "INVALID_REQUEST: an invalid or unknown query parameter, no code and none on the key's workspace, or a cursor that is malformed, altered or issued for another code",
      ),
      409: errorResponse(
        "SNAPSHOT_NOT_CANONICAL: the pinned finalized block is no longer canonical; restart pagination",
      ),
    },
  });

  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const code = query.code ?? c.get("principal").builderCode;
    if (!code) throw invalidInput("code", "required: the key's workspace has no builder code");
    if (!BUILDER_CODE_PATTERN.test(code))
      throw invalidInput("code", `must match ${BUILDER_CODE_PATTERN.source}`);
    const resume = historyResume(deps, code, query.cursor);
    await chargeRequest(c);
    return c.json(await readHistoryResponse(deps, code, resume, limits), 200);
  });
}

type HistoryDeps = Pick<BuilderApiDeps, "client" | "deployment" | "cursorSecret" | "settlementIndex">;

/** Where a cursor says to resume for `code`; a cursor altered, or for another code or deployment, is a 400. */
export function historyResume(
  deps: HistoryDeps,
  code: string,
  cursor: string | undefined,
): HistoryResume | undefined {
  if (cursor === undefined) return undefined;
  const decoded = decodeHistoryCursor(deps.cursorSecret, cursor);
  if (decoded.code !== code) throw invalidInput("cursor", "the cursor belongs to another builder code");
  if (decoded.collector !== deps.deployment.contracts.settlementCollector.toLowerCase())
    throw invalidInput("cursor", "the cursor belongs to another deployment");
  return { snapshot: decoded.snapshot, position: decoded.position };
}

/** One page of `code`'s history in wire format, with the cursor of the next (the settlement index used when there is one). */
export async function readHistoryResponse(
  deps: HistoryDeps,
  code: string,
  resume: HistoryResume | undefined,
  limits?: { blocks: number; events: number },
) {
  const collector = deps.deployment.contracts.settlementCollector;
  const page = await readHistoryPage(deps.client, {
    code,
    sources: settlementSources(deps.deployment.contracts),
    deploymentBlock: BigInt(deps.deployment.deploymentBlock),
    ...(resume ? { resume } : {}),
    ...(deps.settlementIndex ? { index: deps.settlementIndex } : {}),
    ...(limits ? { limits } : {}),
  });
  const nextCursor = page.next
    ? encodeHistoryCursor(deps.cursorSecret, { code, collector, ...page.next })
    : null;
  return toHistoryResponse(page, nextCursor);
}

/** Domain page to wire format: amounts and block numbers as decimal strings. */
export function toHistoryResponse(page: HistoryPage, nextCursor: string | null) {
  return {
    code: page.code,
    builderId: page.builderId,
    settlements: page.settlements.map((s) => ({
      ...s,
      amountIn: s.amountIn.toString(),
      grossAmountOut: s.grossAmountOut.toString(),
      routeFee: s.routeFee.toString(),
      builderFee: s.builderFee.toString(),
      amountOut: s.amountOut.toString(),
      policyVersion: s.policyVersion.toString(),
      blockNumber: s.blockNumber.toString(),
    })),
    nextCursor,
    finalizedThrough: page.snapshot.finalizedThrough.toString(),
    totalsByToken: page.totalsByToken.map((t) => ({
      tokenOut: t.tokenOut,
      grossAmountOut: t.grossAmountOut.toString(),
      routeFee: t.routeFee.toString(),
      builderFee: t.builderFee.toString(),
      amountOut: t.amountOut.toString(),
      count: t.count,
    })),
    totalsScope: "page" as const,
    scannedFrom: page.scannedFrom.toString(),
    scannedThrough: page.scannedThrough.toString(),
    snapshotHash: page.snapshot.snapshotHash,
  };
}
