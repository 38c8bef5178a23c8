import { ConfigError, loadConfig, SETTINGS } from "../config/config.ts";
import { DeploymentFileError } from "../config/deployment.ts";
import { AnvilStartError } from "../devnet/anvil.ts";
import { configuredDevnet } from "../devnet/devnet.ts";
import { createLogger } from "../service/logger.ts";
import { ListenError, startService } from "../service/start-service.ts";

const USAGE = `junction: swap routing for chain 4663

Usage:
  junction start     start the service (on the embedded devnet unless JUNCTION_RPC_URL is set)
  junction devnet    start only the embedded devnet and print its RPC URL and manifest
  junction help      show this help

Settings (environment variables, or keys of the JSON file named by JUNCTION_CONFIG):
${Object.entries(SETTINGS)
  .map(([name, text]) => `  ${name.padEnd(28)} ${text}`)
  .join("\n")}
`;

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Errors an operator can fix: printed as one line, no stack. */
const OPERATOR_ERRORS = [ConfigError, DeploymentFileError, ListenError, AnvilStartError];

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? "help";
  if (command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return;
  }
  if (command !== "start" && command !== "devnet") {
    process.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  let stop: () => Promise<void>;
  if (command === "devnet") {
    if (config.chain.mode !== "devnet")
      throw new ConfigError("JUNCTION_RPC_URL", "`junction devnet` runs the embedded devnet; unset it");
    const devnet = await configuredDevnet(config.chain, config.dataDir, progress);
    progress(`devnet ready (${devnet.boot.kind} boot in ${(devnet.boot.ms / 1000).toFixed(1)} s)`);
    progress(`  rpc      ${devnet.rpcUrl}  (chain id 4663)`);
    progress(`  manifest ${devnet.manifestPath}`);
    stop = devnet.stop;
  } else {
    const logger = createLogger(config.logLevel);
    const service = await startService(config, logger, progress);
    if (service.devnet) {
      const { boot, manifestPath } = service.devnet;
      progress(
        `devnet ready (${boot.kind} boot in ${(boot.ms / 1000).toFixed(1)} s), manifest ${manifestPath}`,
      );
    }
    progress(`junction ready
  {base_url}     ${service.baseUrl}   (config: ${service.baseUrl}/api/v2/config, reference: ${service.baseUrl}/docs)
  {partner_url}  ${service.partnerUrl}
  rpc            ${service.rpcUrl}`);
    stop = service.stop;
  }

  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) {
      progress("forced exit");
      process.exit(130);
    }
    progress(`${signal}: shutting down`);
    stop().then(
      () => process.exit(0),
      (error) => {
        progress(`shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (OPERATOR_ERRORS.some((kind) => error instanceof kind)) {
    process.stderr.write(`junction: ${(error as Error).message}\n`);
  } else {
    process.stderr.write(`junction: unexpected error\n${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
});
