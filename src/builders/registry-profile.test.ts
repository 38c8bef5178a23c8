import {
  type Address,
  encodeErrorResult,
  getContractError,
  type Hex,
  HttpRequestError,
  RawContractError,
  zeroAddress,
} from "viem";
import { describe, expect, it } from "vitest";
import { UpstreamUnavailableError } from "../chain/upstream-error.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { isUnknownBuilder } from "../contracts/registry-errors.ts";
import { readRegistryBuilder } from "./registry-profile.ts";

/**
 * The read's rules against a scripted node: unknown builders recognised from decoded revert data only, the
 * pinned block's hash checked after reading, node failures passed through. The real registry is read in
 * src/api/routes/builders/profile.devnet.test.ts.
 */
const abi = builderRegistryArtifact.abi;
const REGISTRY = `0x${"Aa".repeat(20)}` as Address;
const OWNER = `0x${"Bc".repeat(20)}` as Address;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

/** A failed `builderByCode` as viem's multicall reports it: the revert data decoded against the ABI. */
function reverted(data: Hex) {
  return getContractError(new RawContractError({ data }), {
    abi,
    address: REGISTRY,
    functionName: "builderByCode",
    args: ["x"],
  });
}
const unknownBuilder = () =>
  reverted(encodeErrorResult({ abi, errorName: "UnknownBuilder", args: [hash(7)] }));

const PROFILE = {
  code: "junction-demo",
  owner: OWNER,
  pendingOwner: zeroAddress,
  recipient: OWNER,
  builderFeeBps: 10,
  maxBuilderFeeBps: 50,
  hasRouteFeeOverride: false,
  routeFeeBps: 0,
  enabled: true,
  version: 1,
};

type Outcome = { status: "success"; result: unknown } | { status: "failure"; error: Error };

/** A node whose tip is `tips[i]` at the i-th pin and whose canonical hash at a number is `canonical(n, i)`. */
function node(options: {
  tips: { number: bigint; hash: Hex }[];
  canonical?: (read: number) => Hex;
  results: (read: number) => [Outcome, Outcome];
}) {
  let pins = 0;
  let reads = 0;
  const calls: { blockNumber?: bigint }[] = [];
  return {
    calls,
    client: {
      getBlock: async (args: { blockTag?: string; blockNumber?: bigint }) => {
        if (args.blockTag === "latest") {
          const tip = options.tips[Math.min(pins++, options.tips.length - 1)]!;
          return { ...tip, timestamp: 1n, baseFeePerGas: 1n };
        }
        const read = reads - 1;
        return { number: args.blockNumber, hash: options.canonical?.(read) ?? options.tips[read]!.hash };
      },
      multicall: async (args: { blockNumber?: bigint }) => {
        calls.push({ blockNumber: args.blockNumber });
        return options.results(reads++);
      },
    } as never,
  };
}

describe("readRegistryBuilder", () => {
  it("reads the builder and the commissioned flag at the pinned block, addresses lowercase", async () => {
    const { client, calls } = node({
      tips: [{ number: 42n, hash: hash(42) }],
      results: () => [
        { status: "success", result: true },
        { status: "success", result: { ...PROFILE, hasRouteFeeOverride: true, routeFeeBps: 5 } },
      ],
    });
    const read = await readRegistryBuilder(client, REGISTRY, "junction-demo");
    expect(calls).toEqual([{ blockNumber: 42n }]);
    expect(read).toEqual({
      registry: REGISTRY.toLowerCase(),
      block: { number: 42n, hash: hash(42) },
      commissioned: true,
      builder: {
        code: "junction-demo",
        owner: OWNER.toLowerCase(),
        pendingOwner: zeroAddress,
        recipient: OWNER.toLowerCase(),
        builderFeeBps: 10,
        maxBuilderFeeBps: 50,
        routeFeeBps: 5,
        enabled: true,
        version: 1,
      },
    });
  });

  it("maps no route fee override to null", async () => {
    const { client } = node({
      tips: [{ number: 1n, hash: hash(1) }],
      results: () => [
        { status: "success", result: false },
        { status: "success", result: { ...PROFILE, routeFeeBps: 9 } },
      ],
    });
    const read = await readRegistryBuilder(client, REGISTRY, "junction-demo");
    expect(read.commissioned).toBe(false);
    expect(read.builder?.routeFeeBps).toBeNull();
  });

  it("reports an unregistered code as no builder, from the decoded UnknownBuilder revert", async () => {
    const { client } = node({
      tips: [{ number: 1n, hash: hash(1) }],
      results: () => [
        { status: "success", result: true },
        { status: "failure", error: unknownBuilder() },
      ],
    });
    expect((await readRegistryBuilder(client, REGISTRY, "nobody")).builder).toBeNull();
  });

  it("throws any other revert, even one whose message mentions UnknownBuilder", async () => {
    const other = reverted(
      encodeErrorResult({ abi, errorName: "InvalidBuilderCode", args: ["UnknownBuilder"] }),
    );
    const { client } = node({
      tips: [{ number: 1n, hash: hash(1) }],
      results: () => [
        { status: "success", result: true },
        { status: "failure", error: other },
      ],
    });
    await expect(readRegistryBuilder(client, REGISTRY, "nobody")).rejects.toBe(other);
    expect(isUnknownBuilder(new Error("UnknownBuilder(0x00)"))).toBe(false);
    expect(isUnknownBuilder(unknownBuilder())).toBe(true);
  });

  it("re-reads on a fresh pin when the pinned block was replaced, and gives up after three tries", async () => {
    const ok = (): [Outcome, Outcome] => [
      { status: "success", result: true },
      { status: "success", result: PROFILE },
    ];
    const once = node({
      tips: [
        { number: 5n, hash: hash(5) },
        { number: 6n, hash: hash(6) },
      ],
      canonical: (read) => (read === 0 ? hash(500) : hash(6)),
      results: ok,
    });
    const read = await readRegistryBuilder(once.client, REGISTRY, "junction-demo");
    expect(read.block).toEqual({ number: 6n, hash: hash(6) });
    expect(once.calls).toEqual([{ blockNumber: 5n }, { blockNumber: 6n }]);

    const never = node({ tips: [{ number: 5n, hash: hash(5) }], canonical: () => hash(999), results: ok });
    await expect(readRegistryBuilder(never.client, REGISTRY, "junction-demo")).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
    expect(never.calls).toHaveLength(3);
  });

  it("passes node failures through", async () => {
    const down = new HttpRequestError({ url: "http://node", status: 502 });
    const client = {
      getBlock: async () => {
        throw down;
      },
      multicall: async () => [],
    } as never;
    await expect(readRegistryBuilder(client, REGISTRY, "junction-demo")).rejects.toBe(down);
  });
});
