import { describe, expect, it } from "vitest";
import { gasPriceAt } from "./gas-price.ts";
import { UpstreamUnavailableError } from "./upstream-error.ts";

const node = (price: bigint | Error) => ({
  getGasPrice: async () => {
    if (price instanceof Error) throw price;
    return price;
  },
});

describe("gas price rule (rule 12)", () => {
  it("takes the larger of the suggestion and the block base fee", async () => {
    expect(await gasPriceAt(node(30n), { baseFeePerGas: 20n })).toBe(30n);
    expect(await gasPriceAt(node(10n), { baseFeePerGas: 20n })).toBe(20n);
  });

  it("ignores a zero or failed suggestion while the base fee is positive", async () => {
    expect(await gasPriceAt(node(0n), { baseFeePerGas: 7n })).toBe(7n);
    expect(await gasPriceAt(node(new Error("down")), { baseFeePerGas: 7n })).toBe(7n);
  });

  it("never falls back to zero", async () => {
    await expect(gasPriceAt(node(0n), { baseFeePerGas: 0n })).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
    await expect(gasPriceAt(node(0n), { baseFeePerGas: null })).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
  });
});
