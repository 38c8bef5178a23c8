/**
 * Errors of the `junction` command. A UsageError (bad or missing flags) exits 2 and shows the command's
 * usage; an OperatorError (the request cannot be done: unknown workspace, taken code, unreachable chain)
 * exits 1. Both print one line on stderr, never a stack.
 */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    /** The command whose usage to show, e.g. `key create`. */
    readonly command?: string,
  ) {
    super(message);
  }
}

export class OperatorError extends Error {
  override name = "OperatorError";
}
