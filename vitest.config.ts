import { defineConfig } from "vitest/config";

/**
 * Two projects: `fast` (unit tests, run by `npm run check`) and `devnet` (`*.devnet.test.ts` against a real
 * anvil devnet, each file on its own node restored from one snapshot the global setup seeds once and caches;
 * `*.slow.test.ts` holding a database or processes; `test/`, end to end). `npm test` runs both, and
 * `src/test-kinds.test.ts` checks every test file lands in exactly one.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "fast",
          sequence: { groupOrder: 0 },
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts", "packages/**/*.test.ts"],
          exclude: ["**/*.devnet.test.ts", "**/*.slow.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "devnet",
          sequence: { groupOrder: 1 },
          include: [
            "{src,scripts,packages}/**/*.devnet.test.ts",
            "{src,scripts,packages}/**/*.slow.test.ts",
            "test/**/*.test.ts",
          ],
          globalSetup: ["test/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // Each file runs its own anvil; two cores, two files at a time.
          maxWorkers: 2,
        },
      },
    ],
  },
});
