import { describe, expect, it } from "vitest";
import { serverTiming } from "./server-timing.ts";

const timings = { pin: 0, state: 2.44, search: 8, providers: 0, simulate: 9.21, rank: 0.1 };

describe("serverTiming", () => {
  it("gives each stage's duration and what the quote asked of the node", () => {
    expect(serverTiming(timings, { calls: 6, requests: 1, roundTrips: 1, openedBy: ["eth_call"] })).toBe(
      'pin;dur=0.0, state;dur=2.4, search;dur=8.0, providers;dur=0.0, simulate;dur=9.2, rank;dur=0.1, rpc-calls;desc="6", rpc-requests;desc="1", rpc-round-trips;desc="1"',
    );
  });

  it("names the call that opened each round trip when there was more than one", () => {
    const header = serverTiming(timings, {
      calls: 9,
      requests: 2,
      roundTrips: 2,
      openedBy: ["eth_call", "eth_getBlockByNumber"],
    });
    expect(header).toContain(
      'rpc-round-trips;desc="2", rpc-round-trip-openers;desc="eth_call eth_getBlockByNumber"',
    );
  });

  it("leaves the node's part out when it was not counted", () => {
    expect(serverTiming(timings)).not.toContain("rpc-");
  });
});
