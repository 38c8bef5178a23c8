import { describe, expect, it } from "vitest";
import { buildContracts } from "../../scripts/build-contracts.ts";

describe("generated contract artifacts", () => {
  // Recompiles every contract with solc-js (wasm), hence slow.
  it("match a fresh compile of contracts/src and contracts/devnet", { timeout: 120_000 }, async () => {
    const { changed } = await buildContracts({ write: false, log: () => {} });
    // If this fails: run `npm run build:contracts` and commit src/contracts/artifacts.
    expect(changed).toEqual([]);
  });
});
