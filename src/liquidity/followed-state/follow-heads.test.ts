import { describe, expect, it } from "vitest";
import { type HeadHandlers, HeadSubscriptionError } from "../../chain/new-heads.ts";
import { blockCadence, type FollowModeChange, followHeads } from "./follow-heads.ts";

/**
 * When followHeads steps (the scheduling alone: the steps here only count themselves; the devnet test
 * follow-heads.devnet.test.ts runs it against a real node's subscription).
 */

/** A head source driven by the test: `announce` a head, `end` the subscription, `fail` the next attempts. */
function fakeHeads() {
  const state = { attempts: 0, refuse: false, handlers: undefined as HeadHandlers | undefined, closed: 0 };
  return {
    state,
    subscribe(handlers: HeadHandlers) {
      state.attempts++;
      if (state.refuse)
        return { ready: Promise.reject(new HeadSubscriptionError("unreachable")), close() {} };
      state.handlers = handlers;
      return {
        ready: Promise.resolve(),
        close: () => {
          state.closed++;
          state.handlers = undefined;
        },
      };
    },
    announce: (number: bigint) => state.handlers?.onHead({ number, hash: `0x${"1".repeat(64)}` }),
    end: () => state.handlers?.onEnd(new HeadSubscriptionError("closed")),
  };
}

/** A step that takes `ms` and reports the chain's head (settable), counting how often it ran. */
function countingStep(ms = 0) {
  const chain = { head: 100n, steps: 0, running: 0, overlapped: false };
  const step = async () => {
    chain.running++;
    if (chain.running > 1) chain.overlapped = true;
    chain.steps++;
    await sleep(ms);
    chain.running--;
    return { head: chain.head };
  };
  return { chain, step };
}

/** `followHeads` over the fake heads, recording its mode changes and step errors. */
function follow(
  step: () => Promise<{ head: bigint }>,
  heads: ReturnType<typeof fakeHeads>,
  options: { pollMs: number; safetyPollMs: number; retryMs?: { first: number; max: number } },
) {
  const modes: FollowModeChange[] = [];
  const errors: unknown[] = [];
  const follower = followHeads(step, {
    pollMs: options.pollMs,
    onError: (error) => errors.push(error),
    heads: {
      subscribe: heads.subscribe,
      safetyPollMs: options.safetyPollMs,
      ...(options.retryMs ? { retryMs: options.retryMs } : {}),
    },
    onMode: (change) => modes.push(change),
  });
  return { follower, modes, errors };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, ms = 2_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe("followHeads", () => {
  it("steps at each announced head, and a burst during a step queues one step, not one per head", async () => {
    const heads = fakeHeads();
    const { chain, step } = countingStep(50);
    const { follower, modes, errors } = follow(step, heads, { pollMs: 60_000, safetyPollMs: 60_000 });
    await until(() => follower.mode() === "subscription", "the subscription");
    expect(modes).toEqual([{ mode: "subscription", at: "start" }]);
    await until(() => chain.running === 0 && chain.steps >= 2, "the first step and the catch-up");
    await sleep(20);
    const before = chain.steps;

    heads.announce(101n);
    await until(() => chain.steps === before + 1, "a step for the head");
    // Ten more heads while that step runs: one more step after it.
    for (let n = 102n; n < 112n; n++) heads.announce(n);
    await until(() => chain.running === 0, "the steps to finish");
    await sleep(100);
    expect(chain.steps).toBe(before + 2);
    expect(chain.overlapped).toBe(false);
    expect(errors).toEqual([]);
    await follower.stop();
    expect(heads.state.closed).toBe(1);
  });

  it("polls without a subscription, falls back when it ends, and subscribes again with backoff", async () => {
    const heads = fakeHeads();
    const { chain, step } = countingStep();
    const { follower, modes } = follow(step, heads, {
      pollMs: 20,
      safetyPollMs: 60_000,
      retryMs: { first: 40, max: 80 },
    });
    await until(() => follower.mode() === "subscription", "the subscription");
    await sleep(100);
    // Subscribed with a long safety poll: only the first step and the catch-up ran.
    expect(chain.steps).toBe(2);

    heads.state.refuse = true;
    heads.end();
    expect(follower.mode()).toBe("polling");
    expect(modes.at(-1)).toMatchObject({ mode: "polling", at: "fallback", error: { reason: "closed" } });
    // Polling every 20 ms, and failed attempts to subscribe again (40, 80, 80 ms apart) not reported.
    const fellBack = chain.steps;
    await until(() => chain.steps > fellBack + 3 && heads.state.attempts >= 4, "polls and retries");
    expect(modes).toHaveLength(2);

    heads.state.refuse = false;
    await until(() => follower.mode() === "subscription", "the recovery");
    expect(modes.at(-1)).toEqual({ mode: "subscription", at: "recovery" });
    await follower.stop();
  });

  it("reports polling at start when the subscription cannot start, or when none is configured", async () => {
    const heads = fakeHeads();
    heads.state.refuse = true;
    const modes: FollowModeChange[] = [];
    const { step } = countingStep();
    const refused = followHeads(step, {
      pollMs: 20,
      onError: () => {},
      heads: { subscribe: heads.subscribe, safetyPollMs: 60_000 },
      onMode: (change) => modes.push(change),
    });
    await until(() => modes.length > 0, "the start report");
    expect(modes).toMatchObject([{ mode: "polling", at: "start", error: { reason: "unreachable" } }]);
    await refused.stop();

    const plain: FollowModeChange[] = [];
    const polling = followHeads(step, { pollMs: 20, onError: () => {}, onMode: (c) => plain.push(c) });
    expect(plain).toEqual([{ mode: "polling", at: "start" }]);
    await polling.stop();
  });

  it("notices a subscription that went silent: the node serves heads it does not announce", async () => {
    const heads = fakeHeads();
    const { chain, step } = countingStep();
    const { follower, modes } = follow(step, heads, {
      pollMs: 20,
      safetyPollMs: 50,
      retryMs: { first: 60_000, max: 60_000 },
    });
    await until(() => follower.mode() === "subscription", "the subscription");
    // A quiet chain: the safety poll finds nothing new, and the subscription stays in use.
    await sleep(200);
    expect(follower.mode()).toBe("subscription");
    // Announced heads keep it in use.
    chain.head = 101n;
    heads.announce(101n);
    await sleep(150);
    expect(follower.mode()).toBe("subscription");
    // The node moves on without an announcement: within two safety polls it falls back.
    chain.head = 102n;
    await until(() => follower.mode() === "polling", "the fallback", 1_000);
    expect(modes.at(-1)).toMatchObject({ mode: "polling", at: "fallback", error: { reason: "silent" } });
    await follower.stop();
  });

  it("stops: no step after stop, and a running step is awaited", async () => {
    const heads = fakeHeads();
    const { chain, step } = countingStep(50);
    const { follower } = follow(step, heads, { pollMs: 10, safetyPollMs: 10 });
    await sleep(30);
    heads.announce(101n);
    await follower.stop();
    expect(chain.running).toBe(0);
    const steps = chain.steps;
    heads.announce(102n);
    await sleep(100);
    expect(chain.steps).toBe(steps);
  });
});

describe("blockCadence", () => {
  it("polls once a block is due, soon after when it is late, and every pollMs once the chain stands", () => {
    const cadence = blockCadence();
    // Unknown pace: every pollMs.
    expect(cadence.nextPollMs(1_000, 0)).toBe(1_000);
    cadence.saw(10n, 0);
    expect(cadence.nextPollMs(1_000, 10)).toBe(1_000);
    cadence.saw(11n, 2_000);
    // Block 11 seen at 2,000 ms, blocks every 2 s: the next is due at 4,000 (+50 ms for the node).
    expect(cadence.nextPollMs(1_000, 2_010)).toBe(2_000);
    expect(cadence.nextPollMs(1_000, 3_000)).toBe(1_050);
    // Late: a quarter of pollMs at first, then as late as it is, never beyond pollMs.
    expect(cadence.nextPollMs(1_000, 4_100)).toBe(250);
    expect(cadence.nextPollMs(1_000, 4_650)).toBe(600);
    expect(cadence.nextPollMs(1_000, 60_000)).toBe(1_000);
  });

  it("places a block's arrival between the poll that missed it and the one that found it", () => {
    const cadence = blockCadence();
    cadence.saw(10n, 0);
    cadence.saw(11n, 2_000);
    // Due at 4,000: the poll at 4,050 still finds 11, the one at 4,300 finds 12. It came after 4,050.
    cadence.saw(11n, 4_050);
    cadence.saw(12n, 4_300);
    // Interval 2,000 × 0.75 + 2,050 × 0.25 = 2,012.5: the next is due at 4,050 + 2,012.5 (+50).
    expect(cadence.nextPollMs(1_500, 4_310)).toBeCloseTo(1_802.5);
    // Found with no poll missing it: it came at the predicted 6,062.5 at the latest, and the pace leans
    // shorter (2,012.5 × 0.75 + 2,012.5 × 0.99 × 0.25 = 2,007.47): due at 8,069.97 (+50).
    cadence.saw(13n, 6_100);
    expect(cadence.nextPollMs(1_500, 6_100)).toBeCloseTo(2_019.97, 1);
  });

  it("keeps pollMs for a chain slower than two polls", () => {
    const cadence = blockCadence();
    cadence.saw(1n, 0);
    cadence.saw(2n, 12_000);
    expect(cadence.nextPollMs(1_000, 12_010)).toBe(1_000);
  });
});
