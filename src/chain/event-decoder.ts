import {
  type AbiEvent,
  type AbiParameter,
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
 * does: by their first topic, the indexed inputs' count and data that decodes; the others are dropped.
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
};

function shapeOf(event: AbiEvent): EventShape {
  return {
    event,
    indexed: event.inputs.filter((input) => input.indexed),
    data: event.inputs.filter((input) => !input.indexed),
    named: event.inputs.every((input) => input.name),
  };
}

/** The event's arguments (by name when all are named, else in order), or undefined when the log is not it. */
function decodeArgs(shape: EventShape, topics: Hex[], data: Hex): unknown {
  if (topics.length !== shape.indexed.length) return undefined;
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

function isDynamic(type: string): boolean {
  return type === "string" || type === "bytes" || type.endsWith("]") || type.startsWith("tuple");
}
