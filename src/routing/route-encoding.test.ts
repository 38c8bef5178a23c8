import fc from "fast-check";
import { type Address, getAddress, type Hex, maxUint128, toHex, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  decodeRoute,
  type ExecutorHop,
  type ExecutorRoute,
  encodeRoute,
  RouteEncodingError,
} from "./route-encoding.ts";

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const WETH = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(toHex(bytes)));
const hop: fc.Arbitrary<ExecutorHop> = fc.oneof(
  fc.record({ kind: fc.constant("v2" as const), currencyOut: address }),
  fc.record({
    kind: fc.constant("v3" as const),
    currencyOut: address,
    fee: fc.integer({ min: 0, max: 2 ** 24 - 1 }),
  }),
  fc.record({
    kind: fc.constant("v4" as const),
    currencyOut: address,
    fee: fc.integer({ min: 0, max: 1_000_000 }),
    tickSpacing: fc.integer({ min: 1, max: 32_767 }),
  }),
);
const route: fc.Arbitrary<ExecutorRoute> = fc.record({
  branches: fc.array(
    fc.record({
      amountIn: fc.bigInt({ min: 1n, max: maxUint128 }),
      hops: fc.array(hop, { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

const single = (amountIn: bigint, ...hops: ExecutorHop[]): ExecutorRoute => ({
  branches: [{ amountIn, hops }],
});

describe("route encoding", () => {
  it("encodes the documented example byte for byte (contracts/ROUTE_ENCODING.md)", () => {
    const encoded = encodeRoute(
      {
        branches: [
          { amountIn: 600_000_000n, hops: [{ kind: "v2", currencyOut: WETH }] },
          { amountIn: 400_000_000n, hops: [{ kind: "v3", currencyOut: WETH, fee: 500 }] },
        ],
      },
      { amountIn: 1_000_000_000n, tokenOut: WETH },
    );
    expect(encoded).toBe(
      `0x0102${"0".repeat(24)}23c3460001` +
        `01${WETH.slice(2).toLowerCase()}` +
        `${"0".repeat(24)}17d7840001` +
        `02${WETH.slice(2).toLowerCase()}0001f4`,
    );
  });

  it("packs each hop kind in 21, 24 and 27 bytes, tick spacing as a signed 24-bit integer", () => {
    const v2 = encodeRoute(single(1n, { kind: "v2", currencyOut: USDC }));
    const v3 = encodeRoute(single(1n, { kind: "v3", currencyOut: USDC, fee: 3000 }));
    const v4 = encodeRoute(single(1n, { kind: "v4", currencyOut: zeroAddress, fee: 500, tickSpacing: 10 }));
    expect((v2.length - 2) / 2).toBe(40);
    expect((v3.length - 2) / 2).toBe(43);
    expect((v4.length - 2) / 2).toBe(46);
    expect(v4.endsWith(`03${"0".repeat(40)}0001f400000a`)).toBe(true);
  });

  it("round-trips every well-formed route", () => {
    fc.assert(
      fc.property(route, (r) => {
        expect(decodeRoute(encodeRoute(r))).toEqual(r);
      }),
    );
  });

  it("checks the route against the swap's amountIn and output token", () => {
    const r: ExecutorRoute = {
      branches: [
        { amountIn: 7n, hops: [{ kind: "v2", currencyOut: USDC }] },
        {
          amountIn: 3n,
          hops: [
            { kind: "v3", currencyOut: WETH, fee: 500 },
            { kind: "v2", currencyOut: USDC },
          ],
        },
      ],
    };
    expect(() => encodeRoute(r, { amountIn: 10n, tokenOut: USDC.toLowerCase() as Address })).not.toThrow();
    expect(() => encodeRoute(r, { amountIn: 11n, tokenOut: USDC })).toThrow(
      "branch amounts add up to 10, not the swap's amountIn 11",
    );
    expect(() => encodeRoute(r, { amountIn: 10n, tokenOut: WETH })).toThrow(
      `branch 0 ends in ${USDC}, not the swap's output token ${WETH}`,
    );
  });

  it.each([
    ["no branches", { branches: [] }, "a route has 1 to 3 branches, not 0"],
    [
      "four branches",
      { branches: Array(4).fill({ amountIn: 1n, hops: [{ kind: "v2", currencyOut: USDC }] }) },
      "a route has 1 to 3 branches, not 4",
    ],
    [
      "a branch without hops",
      { branches: [{ amountIn: 1n, hops: [] }] },
      "branch 0: a branch has 1 to 3 hops, not 0",
    ],
    [
      "four hops",
      { branches: [{ amountIn: 1n, hops: Array(4).fill({ kind: "v2", currencyOut: USDC }) }] },
      "branch 0: a branch has 1 to 3 hops, not 4",
    ],
    [
      "a zero amount",
      single(0n, { kind: "v2", currencyOut: USDC }),
      "branch 0: amountIn must be between 1 and 2^128 - 1",
    ],
    [
      "an amount above uint128",
      single(2n ** 128n, { kind: "v2", currencyOut: USDC }),
      "amountIn must be between",
    ],
    ["a bad address", single(1n, { kind: "v2", currencyOut: "0x1234" as Address }), "is not an address"],
    [
      "a V3 fee above uint24",
      single(1n, { kind: "v3", currencyOut: USDC, fee: 2 ** 24 }),
      "fee 16777216 is not a uint24",
    ],
    [
      "a dynamic V4 fee",
      single(1n, { kind: "v4", currencyOut: USDC, fee: 0x800000, tickSpacing: 60 }),
      "V4 fee 8388608 is not a static fee",
    ],
    [
      "a zero tick spacing",
      single(1n, { kind: "v4", currencyOut: USDC, fee: 3000, tickSpacing: 0 }),
      "V4 tick spacing 0 is outside 1..32767",
    ],
    [
      "an unknown kind",
      single(1n, { kind: "v5", currencyOut: USDC } as unknown as ExecutorHop),
      "branch 0 hop 0: unknown hop kind v5",
    ],
  ] as [string, ExecutorRoute, string][])("rejects %s", (_, r, message) => {
    expect(() => encodeRoute(r)).toThrow(RouteEncodingError);
    expect(() => encodeRoute(r)).toThrow(message);
  });

  it("decodes only well-formed version-1 bytes", () => {
    const good = encodeRoute(single(5n, { kind: "v3", currencyOut: USDC, fee: 100 }));
    expect(() => decodeRoute("0x0")).toThrow("even-length");
    expect(() => decodeRoute(`0x02${good.slice(4)}`)).toThrow("unsupported route version 2");
    expect(() => decodeRoute(good.slice(0, -2) as `0x${string}`)).toThrow(
      "route truncated: branch 0 hop 0 fee needs 3 bytes at offset 40",
    );
    expect(() => decodeRoute(`${good}00`)).toThrow("route has 1 trailing bytes after its last branch");
    expect(() => decodeRoute(`${good.slice(0, 40)}04${good.slice(42)}` as Hex)).toThrow(
      "branch 0 hop 0: unknown hop kind 4",
    );
    expect(() => decodeRoute("0x0100")).toThrow("a route has 1 to 3 branches, not 0");
    expect(() => decodeRoute(good, { amountIn: 6n, tokenOut: USDC })).toThrow("add up to 5");
  });
});
