import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * A browser app of this repository (`web/…`, React), bundled in memory with esbuild when first asked for
 * and kept for the life of the process: `npm start` serves the portal with no build step of its own
 * (about a second of CPU at start, in the background). A failed build is retried on the next request.
 */
export function webBundle(entry: URL): () => Promise<string> {
  let bundle: Promise<string> | undefined;
  return () => {
    bundle ??= build({
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
    }).then(
      (result) => result.outputFiles[0]!.text,
      (error) => {
        bundle = undefined;
        throw error;
      },
    );
    return bundle;
  };
}
