import type { AbiEvent } from "viem";
import { builderRegistryArtifact } from "./artifacts/BuilderRegistry.ts";

/** Every event the BuilderRegistry emits: each of its state changes logs one of them. */
export const REGISTRY_EVENTS: readonly AbiEvent[] = builderRegistryArtifact.abi.filter(
  (item): item is Extract<(typeof builderRegistryArtifact.abi)[number], { type: "event" }> =>
    item.type === "event",
);
