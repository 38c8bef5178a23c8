import fc from "fast-check";
import {
  type AbiEvent,
  type AbiParameter,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  parseAbiItem,
  parseEventLogs,
  type RpcLog,
} from "viem";
import { describe, expect, it } from "vitest";
import { ATTRIBUTED, SETTLED } from "../builders/settlement-logs.ts";
import { REGISTRY_EVENTS } from "../contracts/registry-events.ts";
import { DISCOVERY_EVENTS } from "../liquidity/pool-index/discovery.ts";
import { FOLLOWED_EVENTS } from "../liquidity/pool-kinds.ts";
import { createEventDecoder } from "./event-decoder.ts";

/** What the service's head follower decodes: pool, registry, discovery and settlement events. */
const EVENTS: AbiEvent[] = [...FOLLOWED_EVENTS, ...REGISTRY_EVENTS, ...DISCOVERY_EVENTS, SETTLED, ATTRIBUTED];
/** Events of the same selector and other shapes, and one not decoded at all. */
const ERC20_TRANSFER = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);
const ERC721_TRANSFER = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
);
const NAMED = parseAbiItem("event Named(string indexed code, bytes data, uint8[] list)");
/** One selector whose shapes differ in what is indexed: only the topics' count tells them apart. */
const TWO_INDEXED = parseAbiItem("event Pair(uint256 indexed a, uint256 indexed b, uint256 c)");
const ONE_INDEXED = parseAbiItem("event Pair(uint256 indexed a, uint256 b, uint256 c)");
const EXTRA = [ERC20_TRANSFER, ERC721_TRANSFER, NAMED, TWO_INDEXED, ONE_INDEXED];
const UNKNOWN = parseAbiItem("event Unknown(uint256 value)");

function argument(param: AbiParameter): fc.Arbitrary<unknown> {
  const { type } = param;
  if (type === "address") return fc.uint8Array({ minLength: 20, maxLength: 20 }).map(hex);
  if (type === "bool") return fc.boolean();
  if (type === "string") return fc.string({ maxLength: 40 });
  if (type === "bytes") return fc.uint8Array({ maxLength: 70 }).map(hex);
  if (type.endsWith("[]")) return fc.array(argument({ ...param, type: type.slice(0, -2) }), { maxLength: 4 });
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes) return fc.uint8Array({ minLength: Number(bytes[1]), maxLength: Number(bytes[1]) }).map(hex);
  const int = /^(u?)int(\d+)$/.exec(type);
  if (int) {
    const bits = BigInt(int[2]!);
    return int[1] ? fc.bigInt(0n, 2n ** bits - 1n) : fc.bigInt(-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n);
  }
  throw new Error(`no generator for ${type}`);
}

function hex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}

/** A raw log of `event` with random arguments, as a node answers `eth_getLogs`. */
function logOf(event: AbiEvent, index: number): fc.Arbitrary<RpcLog> {
  return fc.tuple(...event.inputs.map(argument)).map((values) => {
    const args = Object.fromEntries(event.inputs.map((input, i) => [input.name, values[i]]));
    const data = event.inputs.filter((input) => !input.indexed);
    return {
      address: "0x00000000000000000000000000000000000000aa",
      topics: encodeEventTopics({ abi: [event], args } as never) as [Hex, ...Hex[]],
      data: encodeAbiParameters(
        data,
        data.map((input) => args[input.name!]),
      ),
      blockHash: `0x${"11".repeat(32)}`,
      blockNumber: "0x10",
      logIndex: `0x${index.toString(16)}`,
      transactionHash: `0x${"22".repeat(32)}`,
      transactionIndex: "0x1",
      removed: false,
    } as RpcLog;
  });
}

describe("createEventDecoder", () => {
  it("decodes what viem's strict log parsing decodes, and drops what it drops", () => {
    const decoder = createEventDecoder([...EVENTS, ...EXTRA]);
    const all = [...EVENTS, ...EXTRA, UNKNOWN];
    const logs = fc.array(
      fc.integer({ min: 0, max: all.length - 1 }).chain((i) => logOf(all[i]!, i)),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(logs, (raw) => {
        const expected = parseEventLogs({
          abi: [...EVENTS, ...EXTRA],
          logs: raw,
          strict: true,
        });
        expect(decoder.decode(raw)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("reads any words as viem does: dirty upper bits, booleans above one, numbers past 2^53, short or long data", () => {
    const decoder = createEventDecoder([...EVENTS, ...EXTRA]);
    const word = fc.oneof(
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex),
      fc.bigInt(0n, 3n).map((n) => `0x${n.toString(16).padStart(64, "0")}` as Hex),
      fc.bigInt(2n ** 40n, 2n ** 60n).map((n) => `0x${n.toString(16).padStart(64, "0")}` as Hex),
    );
    const dirty = fc
      .tuple(fc.integer({ min: 0, max: EVENTS.length + EXTRA.length - 1 }), fc.array(word, { maxLength: 4 }))
      .chain(([i, topics]) => {
        const event: AbiEvent = [...EVENTS, ...EXTRA][i]!;
        return fc
          .tuple(logOf(event, i), fc.array(word, { minLength: 0, maxLength: event.inputs.length + 1 }))
          .map(
            ([log, words]): RpcLog => ({
              ...log,
              topics: [log.topics[0]!, ...topics.slice(0, event.inputs.filter((x) => x.indexed).length + 1)],
              data: `0x${words.map((w) => w.slice(2)).join("")}` as Hex,
            }),
          );
      });
    fc.assert(
      fc.property(fc.array(dirty, { maxLength: 8 }), (raw) => {
        const expected = parseEventLogs({ abi: [...EVENTS, ...EXTRA], logs: raw, strict: true });
        expect(decoder.decode(raw)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("drops a log whose words are not hex, as viem does, instead of failing the block", () => {
    const decoder = createEventDecoder(EVENTS);
    const [log] = fc.sample(logOf(SETTLED, 0), { numRuns: 1, seed: 1 });
    const broken = { ...log!, data: `0x${"zz".repeat((log!.data.length - 2) / 2)}` as Hex };
    expect(decoder.decode([broken, log!])).toEqual(
      parseEventLogs({ abi: EVENTS, logs: [broken, log!], strict: true }),
    );
    expect(decoder.decode([broken])).toEqual([]);
  });

  it("drops a log whose data is shorter than its event's", () => {
    const decoder = createEventDecoder(EVENTS);
    const [log] = fc.sample(logOf(SETTLED, 0), { numRuns: 1, seed: 1 });
    expect(decoder.decode([{ ...log!, data: log!.data.slice(0, 66) as Hex }])).toEqual([]);
  });

  it("asks the node for every event's selector once", () => {
    const decoder = createEventDecoder([...EVENTS, ...EVENTS]);
    expect(decoder.topics[0]).toHaveLength(
      new Set(EVENTS.map((event) => event.name + event.inputs.length)).size,
    );
  });
});
