import { createTransport, type EIP1193RequestFn, type Transport } from "viem";
import { isTransientRpcError } from "./rpc-errors.ts";

export type HedgedTransportOptions = {
  primary: Transport;
  backup: Transport;
  /** Send the same request to the backup if the primary has not answered after this long (ms). */
  delayMs: number;
  /** Observes which endpoint answered; for metrics and tests. */
  onSettled?: (event: { method: string; answeredBy: "primary" | "backup"; backupStarted: boolean }) => void;
};

/**
 * A public transport with exactly one backup (docs/rules.md, comparison rule 15): the request goes to the
 * primary; if it has not answered after `delayMs`, or fails transiently before that, the same request also
 * goes to the backup, and the first success wins. A deterministic rejection (the node answered with a
 * JSON-RPC error) from either endpoint is final: it is not retried elsewhere. Never used for a private
 * transport.
 */
export function hedgedTransport(options: HedgedTransportOptions): Transport {
  return (config) => {
    const inner = { ...config, retryCount: 0 };
    const primary = options.primary(inner).request;
    const backup = options.backup(inner).request;
    const request: EIP1193RequestFn = (args, requestOptions) =>
      new Promise((resolve, reject) => {
        let settled = false;
        let backupStarted = false;
        let failures = 0;
        let expected = 1;
        const finish = (answeredBy: "primary" | "backup", value: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options.onSettled?.({ method: args.method, answeredBy, backupStarted });
          resolve(value as never);
        };
        const fail = (error: unknown, from: "primary" | "backup") => {
          if (settled) return;
          if (!isTransientRpcError(error)) {
            settled = true;
            clearTimeout(timer);
            options.onSettled?.({ method: args.method, answeredBy: from, backupStarted });
            reject(error);
            return;
          }
          failures++;
          if (from === "primary") startBackup();
          if (failures >= expected) {
            settled = true;
            reject(error);
          }
        };
        const startBackup = () => {
          if (backupStarted || settled) return;
          backupStarted = true;
          expected = 2;
          backup(args, requestOptions).then(
            (value) => finish("backup", value),
            (error) => fail(error, "backup"),
          );
        };
        const timer = setTimeout(startBackup, options.delayMs);
        primary(args, requestOptions).then(
          (value) => finish("primary", value),
          (error) => fail(error, "primary"),
        );
      });
    return createTransport({
      key: "hedged",
      name: "Hedged JSON-RPC (one backup)",
      type: "hedged",
      request,
      retryCount: 0,
    });
  };
}
