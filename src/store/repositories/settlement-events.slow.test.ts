import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../../test/store-backends.ts";
import type { Store } from "../create-store.ts";
import { saveSettlementIndex, settlementEventsFor, settlementIndexState } from "./settlement-events.ts";

const COLLECTOR = "0x00000000000000000000000000000000000000c0";
const at = (n: bigint, collector = COLLECTOR) => ({ collector, indexedThrough: n, indexedHash: `0x${n}` });
const event = (blockNumber: bigint) => ({
  blockNumber,
  logIndex: 0,
  builderId: "0xb1",
  entry: JSON.stringify({ blockNumber: blockNumber.toString() }),
});

/** Counts the statements a database handle runs. */
function counting(): KyselyPlugin & { count: number } {
  const plugin = {
    count: 0,
    transformQuery: (args: Parameters<KyselyPlugin["transformQuery"]>[0]) => {
      plugin.count++;
      return args.node;
    },
    transformResult: async (args: Parameters<KyselyPlugin["transformResult"]>[0]) => args.result,
  };
  return plugin;
}

describe.each(storeBackends())("settlement index saves on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("moves forward only, keeps the events of earlier saves when a save finds none, and starts over on reset", async () => {
    const { db } = store;
    // The first save creates the state, with events.
    expect(
      await saveSettlementIndex(db, { from: 1n, events: [event(5n)], state: at(10n), reset: false }),
    ).toBe(true);
    // Saves that found nothing move the index forward in one statement and keep what is there.
    const statements = counting();
    expect(
      await saveSettlementIndex(db.withPlugin(statements), {
        from: 11n,
        events: [],
        state: at(20n),
        reset: false,
      }),
    ).toBe(true);
    expect(statements.count).toBe(1);
    expect(await settlementIndexState(db)).toEqual(at(20n));
    expect(
      await saveSettlementIndex(db, {
        from: 21n,
        events: [],
        state: at(30n),
        reset: false,
        finality: { events: [], closings: [] },
      }),
    ).toBe(true);
    expect(await settlementIndexState(db)).toEqual(at(30n));
    expect(await settlementEventsFor(db, "0xb1", 0n, 100n)).toHaveLength(1);

    // Never backwards, nor to where it already is (another process got there first).
    expect(await saveSettlementIndex(db, { from: 21n, events: [], state: at(25n), reset: false })).toBe(
      false,
    );
    expect(await saveSettlementIndex(db, { from: 31n, events: [], state: at(30n), reset: false })).toBe(
      false,
    );
    expect(await settlementIndexState(db)).toEqual(at(30n));

    // Another collector's save that found nothing does not move this index: it takes the full path.
    const other = "0x00000000000000000000000000000000000000c1";
    expect(await saveSettlementIndex(db, { from: 1n, events: [], state: at(40n, other), reset: true })).toBe(
      true,
    );
    expect(await settlementIndexState(db)).toEqual(at(40n, other));
    expect(await settlementEventsFor(db, "0xb1", 0n, 100n)).toEqual([]);
  });
});
