import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { closeGracefully } from "./close-gracefully.ts";

/** A real listener whose `/slow` answers when the test says so, and `/never` not at all. */
async function listener() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = () => {};
  const inFlight = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const app = new Hono()
    .get("/slow", async (c) => {
      arrived();
      await released;
      return c.text("done");
    })
    .get("/never", () => {
      arrived();
      return new Promise<Response>(() => {});
    });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, release, inFlight };
}

describe("closeGracefully", () => {
  it("lets an in-flight request finish and refuses new connections", async () => {
    const { server, url, release, inFlight } = await listener();
    const pending = fetch(`${url}/slow`);
    await inFlight;
    const closed = closeGracefully(server, 60_000);
    await expect(fetch(`${url}/slow`)).rejects.toThrow();
    release();
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("done");
    await closed;
  });

  it("cuts a request that does not finish within the grace period", async () => {
    const { server, url, inFlight } = await listener();
    const pending = fetch(`${url}/never`).then(
      () => "answered",
      () => "cut",
    );
    await inFlight;
    await closeGracefully(server, 100);
    expect(await pending).toBe("cut");
  });
});
