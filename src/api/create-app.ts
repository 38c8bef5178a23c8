import { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError, handleError, notFound } from "./errors.ts";

/**
 * An OpenAPIHono app with our error contract: request validation failures become 400 INVALID_REQUEST with
 * the rejected paths, unknown routes 404 NOT_FOUND, anything unexpected a bare 500 INTERNAL (logged).
 */
export function createApp(logError: (error: unknown) => void): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      if (result.success) return;
      throw new ApiError(
        "INVALID_REQUEST",
        "the request is invalid",
        result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      );
    },
  });
  app.onError(handleError(logError));
  app.notFound(notFound);
  return app;
}
