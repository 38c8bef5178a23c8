import { Writable } from "node:stream";
import { pino } from "pino";
import { CallExecutionError, HttpRequestError, RpcRequestError } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logError, repeatingWarning } from "./logger.ts";

const CALLDATA = `0x${"ab".repeat(40_000)}`;

describe("logged errors", () => {
  it("keep a short message, a few frames and the causes' codes, never a body or calldata", () => {
    const rpc = new RpcRequestError({
      body: { method: "eth_call", params: [{ data: CALLDATA }] },
      error: { code: -32000, message: "execution reverted" },
      url: "https://rpc.example/v2/secret-key",
    });
    const error = new CallExecutionError(rpc, {
      account: undefined,
      data: CALLDATA as `0x${string}`,
      to: "0x0000000000000000000000000000000000000001",
    });
    expect(error.message).toContain("abab");
    const lines: string[] = [];
    const logger = pino(
      { serializers: { err: logError } },
      new Writable({
        write(chunk, _, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    logger.warn({ err: error }, "following pool state failed");
    const line = lines.join("");
    expect(line.length).toBeLessThan(4_000);
    expect(line).not.toContain("abab");
    expect(line).not.toContain("secret-key");
    const logged = JSON.parse(line).err;
    expect(logged).toMatchObject({ type: "CallExecutionError", cause: { code: -32000 } });
  });

  it("keep an HTTP status and a plain error's first paragraph", () => {
    const http = new HttpRequestError({ url: "http://node", status: 429, body: { method: "eth_getLogs" } });
    expect(logError(http)).toMatchObject({ type: "HttpRequestError", status: 429 });
    expect(logError(new Error(`first\n\n${"x".repeat(10_000)}`)).message).toBe("first");
    expect(logError("plain").message).toBe("plain");
  });
});

describe("a repeating warning", () => {
  afterEach(() => vi.useRealTimers());

  it("is logged at once, then once an interval with the count of its repeats", () => {
    vi.useFakeTimers();
    const warned: [Record<string, unknown>, string][] = [];
    const warning = repeatingWarning(
      { warn: (fields: object, msg: string) => warned.push([fields as never, msg]) } as never,
      "sync failed",
      60_000,
    );
    warning.warn({ n: 1 });
    for (let n = 2; n <= 30; n++) {
      vi.advanceTimersByTime(2_000);
      warning.warn({ n });
    }
    expect(warned).toEqual([[{ n: 1 }, "sync failed"]]);
    vi.advanceTimersByTime(2_000);
    expect(warned[1]).toEqual([
      { n: 30, repeated: 29, intervalMs: 60_000 },
      "sync failed (repeated 29 times)",
    ]);
    // Quiet for an interval: the next one is said at once again.
    vi.advanceTimersByTime(60_000);
    warning.warn({ n: 31 });
    expect(warned[2]).toEqual([{ n: 31 }, "sync failed"]);
    warning.warn({ n: 32 });
    warning.stop();
    expect(warned[3]).toEqual([{ n: 32, repeated: 1 }, "sync failed (repeated 1 time)"]);
    expect(warned).toHaveLength(4);
  });
});
