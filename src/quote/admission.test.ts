import { describe, expect, it } from "vitest";
import { BusyError, createAdmission, QuoteTimeoutError } from "./admission.ts";

/** A search that finishes when the test says so. */
function gate<T>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open, search: () => promise };
}

const busy = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as BusyError;
  }
  throw new Error("expected BusyError");
};

describe("quote admission", () => {
  it("admits 4 concurrent searches, then answers BUSY with Retry-After 2", async () => {
    const admission = createAdmission();
    const gates = Array.from({ length: 4 }, () => gate<number>());
    const running = gates.map((g, i) => admission.run(`q${i}`, g.search));
    const error = busy(() => admission.run("q4", gate<number>().search));
    expect(error).toBeInstanceOf(BusyError);
    expect(error).toMatchObject({ reason: "concurrency", retryAfterSeconds: 2 });
    gates[0]!.open(1);
    await running[0];
    await expect(admission.run("q5", async () => 5)).resolves.toBe(5);
    for (const g of gates) g.open(0);
    await Promise.all(running);
    expect(admission.active()).toBe(0);
  });

  it("shares one in-flight search between identical requests", async () => {
    const admission = createAdmission();
    let searches = 0;
    const g = gate<string>();
    const search = () => {
      searches++;
      return g.promise;
    };
    const first = admission.run("same", search);
    const second = admission.run("same", search);
    expect(admission.active()).toBe(1);
    g.open("result");
    expect(await first).toBe("result");
    expect(await second).toBe("result");
    expect(searches).toBe(1);
    // Nothing is kept once it settles: the next identical request searches again.
    await admission.run("same", async () => "again");
  });

  it("allows 60 admissions per minute window, then Retry-After is the seconds left", async () => {
    let clock = 1_000_000;
    const admission = createAdmission({ now: () => clock });
    for (let i = 0; i < 60; i++) await admission.run(`q${i}`, async () => i);
    clock += 12_500;
    const error = busy(() => admission.run("q60", async () => 60));
    expect(error).toMatchObject({ reason: "rate", retryAfterSeconds: 48 });
    clock += 47_500;
    await expect(admission.run("q61", async () => 61)).resolves.toBe(61);
  });

  it("expires admission and ownership after 60 s: a stuck search frees its slot", async () => {
    let clock = 0;
    const admission = createAdmission({ now: () => clock, concurrency: 1 });
    let aborted = false;
    void admission.run("stuck", (signal) => {
      signal.addEventListener("abort", () => {
        aborted = true;
      });
      return new Promise(() => {});
    });
    expect(() => admission.run("other", async () => 1)).toThrow(BusyError);
    clock += 60_000;
    await expect(admission.run("other", async () => 1)).resolves.toBe(1);
    expect(aborted).toBe(true);
    // The expired search is no longer joinable: an identical request starts its own.
    await expect(admission.run("stuck", async () => "fresh")).resolves.toBe("fresh");
  });

  it("aborts a search at the deadline and reports QUOTE_TIMEOUT", async () => {
    const admission = createAdmission({ deadlineMs: 30 });
    let aborted = false;
    const result = admission.run("slow", (signal) => {
      signal.addEventListener("abort", () => {
        aborted = true;
      });
      return new Promise(() => {});
    });
    await expect(result).rejects.toBeInstanceOf(QuoteTimeoutError);
    expect(aborted).toBe(true);
    expect(admission.active()).toBe(0);
  });
});
