import {
  type AbiEvent,
  type AbiParameter,
  checksumAddress,
  decodeAbiParameters,
  formatLog,
  type Hex,
  type Log,
  type RpcLog,
  toEventSelector,
} from "viem";

/** A log decoded against one of the decoder's events, in viem's `getLogs` shape. */
export type DecodedLog = Log<bigint, number, false> & { eventName: string; args: unknown };

/**
 * Decodes raw `eth_getLogs` answers against a fixed set of events whose selectors are computed once.
 * viem's `getLogs({ events })` encodes every event's topic on each call and, for each log, formats and
 * hashes the candidate events' signatures anew (`parseEventLogs`, `decodeEventLog`): work that a follower
 * calling once a block, mostly with cold code, paid every block. Logs match as viem's strict decoding
 * does: by their first topic, then the first of its events whose indexed inputs have topics and whose data
 * decodes; the others are dropped.
 * An event whose arguments are all one word each (numbers, addresses, booleans, fixed bytes: every pool
 * event) is read straight from the hex, word by word, without viem's byte cursor; its values are those
 * viem gives (a number for an integer of 48 bits or fewer, a checksummed address).
 */
export function createEventDecoder(events: readonly AbiEvent[]) {
  const bySelector = new Map<Hex, EventShape[]>();
  for (const event of events) {
    const selector = toEventSelector(event);
    const shapes = bySelector.get(selector) ?? [];
    if (shapes.some((shape) => shape.event === event)) continue;
    shapes.push(shapeOf(event));
    bySelector.set(selector, shapes);
  }
  return {
    /** `eth_getLogs`' `topics` filter matching any of the events. */
    topics: [[...bySelector.keys()]] as [Hex[]],
    decode(logs: readonly RpcLog[]): DecodedLog[] {
      const decoded: DecodedLog[] = [];
      for (const log of logs) {
        const [selector, ...indexed] = log.topics as Hex[];
        for (const shape of (selector && bySelector.get(selector)) || []) {
          const args = decodeArgs(shape, indexed, log.data);
          if (args === undefined) continue;
          decoded.push({
            ...(formatLog(log) as Log<bigint, number, false>),
            eventName: shape.event.name,
            args,
          });
          break;
        }
      }
      return decoded;
    },
  };
}

type EventShape = {
  event: AbiEvent;
  indexed: readonly AbiParameter[];
  data: readonly AbiParameter[];
  named: boolean;
  /** Each input's word reader, when every input is one static word. */
  words: readonly WordReader[] | undefined;
};

/** Reads one ABI word (64 hex digits, no prefix) as its type; undefined when it is not a valid one. */
type WordReader = (word: string) => unknown;

function shapeOf(event: AbiEvent): EventShape {
  const words = event.inputs.map((input) => wordReader(input.type));
  return {
    event,
    indexed: event.inputs.filter((input) => input.indexed),
    data: event.inputs.filter((input) => !input.indexed),
    named: event.inputs.every((input) => input.name),
    words: words.every((reader) => reader !== undefined) ? (words as WordReader[]) : undefined,
  };
}

/** The event's arguments (by name when all are named, else in order), or undefined when the log is not it. */
function decodeArgs(shape: EventShape, topics: Hex[], data: Hex): unknown {
  // Too few topics fail; more are ignored, as viem does (an event of the same selector with fewer indexed
  // inputs listed first wins).
  if (topics.length < shape.indexed.length) return undefined;
  if (shape.words) {
    try {
      return readWords(shape, shape.words, topics, data);
    } catch {
      return undefined; // not hex: dropped, as viem's strict parsing drops what it cannot decode
    }
  }
  let fromData: readonly unknown[];
  try {
    fromData = shape.data.length === 0 ? [] : decodeAbiParameters(shape.data, data);
  } catch {
    return undefined;
  }
  const values: unknown[] = [];
  let t = 0;
  let d = 0;
  for (const input of shape.event.inputs) {
    if (!input.indexed) values.push(fromData[d++]);
    else {
      const topic = topics[t++]!;
      // A dynamic indexed value is only its hash in the topic, as viem leaves it.
      values.push(isDynamic(input.type) ? topic : decodeAbiParameters([input], topic)[0]);
    }
  }
  if (!shape.named) return values;
  return Object.fromEntries(shape.event.inputs.map((input, i) => [input.name, values[i]]));
}

function readWords(shape: EventShape, readers: readonly WordReader[], topics: Hex[], data: Hex): unknown {
  if (data.length < 2 + 64 * shape.data.length) return undefined;
  const { inputs } = shape.event;
  const values: unknown[] = new Array(inputs.length);
  let t = 0;
  let d = 0;
  for (let i = 0; i < inputs.length; i++) {
    const word = inputs[i]!.indexed ? topics[t++]!.slice(2) : data.slice(2 + 64 * d, 2 + 64 * ++d);
    const value = readers[i]!(word);
    if (value === undefined) return undefined;
    values[i] = value;
  }
  if (!shape.named) return values;
  const args: Record<string, unknown> = {};
  for (let i = 0; i < inputs.length; i++) args[inputs[i]!.name!] = values[i];
  return args;
}

const TWO_256 = 1n << 256n;
const TWO_255 = 1n << 255n;

function wordReader(type: string): WordReader | undefined {
  if (type === "address") return (word) => checksumAddress(`0x${word.slice(24)}`);
  if (type === "bool") return (word) => (/^0{63}[01]$/.test(word) ? word.endsWith("1") : undefined);
  const bytes = /^bytes([1-9]|[12][0-9]|3[0-2])$/.exec(type);
  if (bytes) return (word) => `0x${word.slice(0, 2 * Number(bytes[1])).toLowerCase()}`;
  const int = /^(u?)int(\d*)$/.exec(type);
  if (!int) return undefined;
  const signed = int[1] === "";
  const small = Number(int[2] || 256) <= 48;
  return (word) => {
    let value = BigInt(`0x${word}`);
    if (signed && value >= TWO_255) value -= TWO_256;
    if (!small) return value;
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : undefined;
  };
}

function isDynamic(type: string): boolean {
  return type === "string" || type === "bytes" || type.endsWith("]") || type.startsWith("tuple");
}
