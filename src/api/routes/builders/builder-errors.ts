import type { ErrorCode } from "../../../errors/junction-error.ts";
import { JunctionError } from "../../../errors/junction-error.ts";
import { errorSurface } from "../../errors.ts";

/**
 * How the builder surface restates codes its status table has no row for (docs/rules.md, errors: builder):
 * terms nothing can serve are 400 UNSUPPORTED_TERMS (the original code stays in the message), and a reorg
 * during the quote is 503 UPSTREAM_UNAVAILABLE (ask again).
 */
export const BUILDER_SURFACE_CODES: Partial<Record<ErrorCode, ErrorCode>> = {
  UNKNOWN_TOKEN: "UNSUPPORTED_TERMS",
  NO_ROUTE: "UNSUPPORTED_TERMS",
  NO_EXECUTABLE_ROUTE: "UNSUPPORTED_TERMS",
  PROVIDER_DISABLED: "UNSUPPORTED_TERMS",
  BLOCK_REORGED: "UPSTREAM_UNAVAILABLE",
};

/** The builder surface's own code for an error, where its status table differs (see BUILDER_SURFACE_CODES). */
export function onBuilderSurface(error: JunctionError): JunctionError {
  const code = BUILDER_SURFACE_CODES[error.code];
  if (!code) return error;
  const message = code === "UNSUPPORTED_TERMS" ? `${error.shortMessage} (${error.code})` : error.shortMessage;
  return new JunctionError(code, message, {
    ...(error.issues ? { issues: error.issues } : {}),
    ...(code === "UPSTREAM_UNAVAILABLE"
      ? { reason: "tip-unstable" as const }
      : error.reason
        ? { reason: error.reason }
        : {}),
    cause: error,
  });
}

/** Mounted in front of `/api/v2/builders/*`: every builder route's errors, restated once. */
export const builderErrors = errorSurface(onBuilderSurface);
