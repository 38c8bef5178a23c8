import { fileURLToPath } from "node:url";
import { build, stop } from "esbuild";

/** Builds running now, across every bundle of the process: esbuild's service is stopped when none is. */
let building = 0;

/**
 * A browser app of this repository (`web/…`, React), bundled in memory with esbuild when first asked for
 * and kept for the life of the process: `npm start` serves the portal with no build step of its own
 * (about a second of CPU at start, in the background). A failed build is retried on the next request.
 *
 * esbuild builds in a child process that pings this one every second for as long as it runs, which wakes
 * an idle service twice a block at 2 s blocks. Once no build is running it is stopped; esbuild starts a new
 * one if anything builds again.
 */
export function webBundle(entry: URL): () => Promise<string> {
  let bundle: Promise<string> | undefined;
  return () => {
    if (bundle) return bundle;
    building++;
    bundle = build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      legalComments: "none",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    })
      .then(
        (result) => result.outputFiles[0]!.text,
        (error) => {
          bundle = undefined;
          throw error;
        },
      )
      .finally(() => {
        building--;
        if (building === 0) void stop();
      });
    return bundle;
  };
}
