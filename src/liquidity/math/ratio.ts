/** A non-negative rational number, kept exact: `num / den` with `den` > 0. */
export type Ratio = { num: bigint; den: bigint };
