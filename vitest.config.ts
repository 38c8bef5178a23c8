import { defineConfig } from "vitest/config";

/**
 * Two projects: `fast` (pure unit tests, run by `npm run check`) and `devnet` (tests against a real anvil
 * devnet, each file on its own node restored from one snapshot the global setup seeds once and caches).
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
            "src/**/*.devnet.test.ts",
            "src/**/*.slow.test.ts",
            "packages/**/*.devnet.test.ts",
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
