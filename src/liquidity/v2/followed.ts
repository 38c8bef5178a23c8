/** A followed V2 pair: its reserves after some block. */
export type FollowedV2 = { kind: "v2"; reserve0: bigint; reserve1: bigint };
