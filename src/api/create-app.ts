import { OpenAPIHono } from "@hono/zod-openapi";
import { CHAIN_ID } from "../chain/chain.ts";
import { InvalidRequestError, JunctionError } from "../errors/junction-error.ts";
import { handleError, notFound } from "./errors.ts";
import { isUnsupportedChain } from "./schemas/chain-id.ts";

/**
 * An OpenAPIHono app with our error contract: request validation failures become 400 INVALID_REQUEST with
 * the rejected paths (400 UNSUPPORTED_CHAIN when another chain was asked for), unknown routes 404
 * NOT_FOUND, anything unexpected a bare 500 INTERNAL (logged).
 */
export function createApp(logError: (error: unknown) => void): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      if (result.success) return;
      if (isUnsupportedChain(result.error.issues))
        throw new JunctionError("UNSUPPORTED_CHAIN", `only chain ${CHAIN_ID} is supported`);
      throw new InvalidRequestError(
        result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      );
    },
  });
  app.onError(handleError(logError));
  app.notFound(notFound);
  return app;
}
