import { describe, expectTypeOf, it } from "vitest";
import type { PoolRef, PoolSnapshot } from "./pool-kinds.ts";
import type { V2PoolRef } from "./v2/read-state.ts";
import type { V2PoolSnapshot } from "./v2/snapshot.ts";
import type { V3PoolRef } from "./v3/read-state.ts";
import type { V3PoolSnapshot } from "./v3/snapshot.ts";
import type { V4PoolRef } from "./v4/read-state.ts";
import type { V4PoolSnapshot } from "./v4/snapshot.ts";

describe("poolKinds", () => {
  it("gives the pool and state unions of its kinds, read off their methods (a new kind joins by its entry)", () => {
    // Checked by the typecheck (npm run check), which fails if either union loses a kind or widens to any.
    expectTypeOf<PoolSnapshot>().toEqualTypeOf<V2PoolSnapshot | V3PoolSnapshot | V4PoolSnapshot>();
    expectTypeOf<PoolRef>().toEqualTypeOf<V2PoolRef | V3PoolRef | V4PoolRef>();
  });
});
