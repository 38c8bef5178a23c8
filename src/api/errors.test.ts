import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { JunctionError } from "../errors/junction-error.ts";
import { errorSurface, handleError } from "./errors.ts";
import { builderErrors } from "./routes/builders/builder-errors.ts";

describe("errors mapped once per surface", () => {
  const app = new Hono();
  app.onError(handleError(() => {}));
  app.use("/builders/*", builderErrors);
  app.use(
    "/shouting/*",
    errorSurface((error) => new JunctionError(error.code, error.shortMessage.toUpperCase())),
  );
  const noRoute = () => {
    throw new JunctionError("NO_ROUTE", "no route for this pair");
  };
  for (const path of ["/public/quote", "/builders/quote", "/shouting/quote"]) app.get(path, noRoute);
  app.get("/builders/reorg", () => {
    throw new JunctionError("BLOCK_REORGED", "the block was reorged");
  });

  const answer = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, body: (await response.json()) as { error: { message: string } } };
  };

  it("answers a request from the status table as thrown, outside any surface that restates", async () => {
    expect(await answer("/public/quote")).toEqual({
      status: 422,
      body: { error: { code: "NO_ROUTE", message: "no route for this pair" } },
    });
  });

  it("restates on the surface that declared it, and only there", async () => {
    expect(await answer("/builders/quote")).toEqual({
      status: 400,
      body: { error: { code: "UNSUPPORTED_TERMS", message: "no route for this pair (NO_ROUTE)" } },
    });
    expect(await answer("/builders/reorg")).toEqual({
      status: 503,
      body: {
        error: { code: "UPSTREAM_UNAVAILABLE", message: "the block was reorged", reason: "tip-unstable" },
      },
    });
    expect((await answer("/shouting/quote")).body.error.message).toBe("NO ROUTE FOR THIS PAIR");
  });
});
