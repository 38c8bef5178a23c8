import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../../config/capabilities.ts";
import { ERROR_STATUS } from "../../error-status.ts";
import { IntegrationBodySchema } from "../../schemas/builder-integration.ts";
import { integrationBodyError, ZAP_ACTIONS } from "./integration.ts";

/**
 * The body rules of `POST /api/v2/builders/integration` (docs/rules.md, multi-swap rules 1-2 and limits), as
 * the route applies them: the schema, then the route's mapping of a failure to its 400. Rules between fields
 * (weights total, repeated tokens) live in the planner and are tested in src/builders/multi-plan.test.ts; the
 * whole route runs in integration.devnet.test.ts.
 */
const T = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const PAYER = `0x${"11".repeat(20)}`;

function body(input: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return {
    action: "multi-plan",
    input: {
      execution: "sequential",
      payer: PAYER,
      inputs: [{ token: T(1), amount: "1000" }],
      outputs: [{ token: T(2), weightBps: 10_000 }],
      ...input,
    },
    ...top,
  };
}

/** What the route answers for a body: "ok" when it passes validation, else the error's code, status and issues. */
function validate(value: unknown) {
  const result = IntegrationBodySchema.safeParse(value);
  if (result.success) return "ok" as const;
  const error = integrationBodyError(value, result.error);
  return {
    code: error.code,
    status: ERROR_STATUS[error.code],
    paths: (error.issues ?? []).map((i) => i.path),
  };
}

const invalid = (...paths: string[]) => ({ code: "INVALID_REQUEST", status: 400, paths });
const outputs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ token: T(100 + i), weightBps: i === 0 ? 10_000 - (n - 1) : 1 }));
const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ token: T(200 + i), amount: "1" }));

describe("multi-plan body validation", () => {
  it("accepts the smallest and the largest valid bodies", () => {
    expect(validate(body())).toBe("ok");
    expect(
      validate(
        body({
          recipient: T(9),
          inputs: inputs(4),
          outputs: outputs(4),
          slippageBps: 500,
          builderCode: "junction-demo",
          builderFeeBps: 50,
        }),
      ),
    ).toBe("ok");
    expect(validate(body({ slippageBps: 1, builderFeeBps: 0 }))).toBe("ok");
  });

  it("answers UNSUPPORTED_ACTION for any other action string, whatever else is wrong", () => {
    for (const action of ["swap", "MULTI-PLAN", ""]) {
      expect(validate(body({}, { action }))).toEqual({ code: "UNSUPPORTED_ACTION", status: 400, paths: [] });
    }
    expect(validate({ action: "bridge", input: 1, extra: true })).toMatchObject({
      code: "UNSUPPORTED_ACTION",
    });
  });

  it("answers zap actions 503 ZAPS_DISABLED, whatever their input, as the capabilities say", () => {
    expect(CAPABILITIES.zaps).toBe(false);
    for (const action of ZAP_ACTIONS) {
      expect(validate(body({}, { action }))).toEqual({ code: "ZAPS_DISABLED", status: 503, paths: [] });
      expect(validate({ action, input: { vault: "0x01" } })).toMatchObject({ code: "ZAPS_DISABLED" });
    }
  });

  it("needs an action and an input object", () => {
    expect(validate({ input: body().input })).toEqual(invalid("action"));
    expect(validate({ action: 7, input: body().input })).toEqual(invalid("action"));
    expect(validate({ action: "multi-plan" })).toEqual(invalid("input"));
    expect(validate(null)).toMatchObject({ code: "INVALID_REQUEST" });
  });

  it("names every unknown property by its full path", () => {
    expect(validate(body({}, { extra: 1 }))).toEqual(invalid("extra"));
    expect(validate(body({ note: "x" }))).toEqual(invalid("input.note"));
    expect(validate(body({ inputs: [{ token: T(1), amount: "1", memo: "x" }] }))).toEqual(
      invalid("input.inputs.0.memo"),
    );
    expect(validate(body({ outputs: [{ token: T(2), weightBps: 10_000, min: "1" }] }))).toEqual(
      invalid("input.outputs.0.min"),
    );
  });

  it("requires execution sequential", () => {
    expect(validate(body({ execution: "parallel" }))).toEqual(invalid("input.execution"));
    expect(validate(body({ execution: undefined }))).toEqual(invalid("input.execution"));
  });

  it("takes 1 to 4 inputs and 1 to 4 outputs", () => {
    expect(validate(body({ inputs: [] }))).toEqual(invalid("input.inputs"));
    expect(validate(body({ inputs: inputs(5) }))).toEqual(invalid("input.inputs"));
    expect(validate(body({ outputs: [] }))).toEqual(invalid("input.outputs"));
    expect(validate(body({ outputs: outputs(5) }))).toEqual(invalid("input.outputs"));
  });

  it("requires weightBps integers from 1 to 10000", () => {
    for (const weightBps of [0, 10_001, 5000.5, "5000"]) {
      expect(validate(body({ outputs: [{ token: T(2), weightBps }] }))).toEqual(
        invalid("input.outputs.0.weightBps"),
      );
    }
  });

  it("requires amounts as decimal strings from 1 to 2^256 - 1", () => {
    for (const amount of ["0", "-1", "1.5", "1e18", "", 1000, (2n ** 256n).toString()]) {
      expect(validate(body({ inputs: [{ token: T(1), amount }] }))).toEqual(invalid("input.inputs.0.amount"));
    }
    expect(validate(body({ inputs: [{ token: T(1), amount: maxUint256.toString() }] }))).toBe("ok");
  });

  it("requires addresses for payer, recipient and tokens", () => {
    for (const bad of ["0x1234", `0x${"g".repeat(40)}`, "11".repeat(20), `0x${"1".repeat(41)}`]) {
      expect(validate(body({ payer: bad }))).toEqual(invalid("input.payer"));
      expect(validate(body({ recipient: bad }))).toEqual(invalid("input.recipient"));
      expect(validate(body({ inputs: [{ token: bad, amount: "1" }] }))).toEqual(
        invalid("input.inputs.0.token"),
      );
      expect(validate(body({ outputs: [{ token: bad, weightBps: 10_000 }] }))).toEqual(
        invalid("input.outputs.0.token"),
      );
    }
    expect(validate(body({ payer: undefined }))).toEqual(invalid("input.payer"));
    const zero = `0x${"0".repeat(40)}`;
    expect(validate(body({ payer: zero }))).toEqual(invalid("input.payer"));
    expect(validate(body({ recipient: zero }))).toEqual(invalid("input.recipient"));
    // Native ETH (the zero address) is a token like any other.
    expect(validate(body({ inputs: [{ token: zero, amount: "1" }] }))).toBe("ok");
  });

  it("bounds slippageBps to 1..500 and builderFeeBps to 0..50", () => {
    expect(validate(body({ slippageBps: 0 }))).toEqual(invalid("input.slippageBps"));
    expect(validate(body({ slippageBps: 501 }))).toEqual(invalid("input.slippageBps"));
    expect(validate(body({ slippageBps: 2.5 }))).toEqual(invalid("input.slippageBps"));
    expect(validate(body({ builderFeeBps: 51 }))).toEqual(invalid("input.builderFeeBps"));
    expect(validate(body({ builderFeeBps: -1 }))).toEqual(invalid("input.builderFeeBps"));
  });

  it("requires a builder code to match ^[A-Za-z0-9_-]{3,32}$", () => {
    for (const builderCode of ["ab", "a".repeat(33), "bad code", "héllo"]) {
      expect(validate(body({ builderCode }))).toEqual(invalid("input.builderCode"));
    }
  });
});
