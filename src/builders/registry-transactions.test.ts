import { decodeFunctionData, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { CHAIN_ID } from "../chain/chain.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { builderIdOf } from "./builder-code.ts";
import {
  acceptOwnershipTransaction,
  RegistryInputError,
  registerTransaction,
  registryTransaction,
  setBuilderFeeTransaction,
  setRecipientTransaction,
  transferOwnershipTransaction,
} from "./registry-transactions.ts";

const registry = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const decode = (data: `0x${string}`) => decodeFunctionData({ abi: builderRegistryArtifact.abi, data });

describe("registry transactions", () => {
  it("encodes each registry call, unsigned, to the registry on chain 4663 with no value", () => {
    const id = builderIdOf("acme-app");
    const cases = [
      [
        registerTransaction(registry, { code: "acme-app", recipient: wallet, builderFeeBps: 12 }),
        "register",
        ["acme-app", wallet, 12],
      ],
      [setRecipientTransaction(registry, { builderId: id, recipient: wallet }), "setRecipient", [id, wallet]],
      [setBuilderFeeTransaction(registry, { builderId: id, builderFeeBps: 50 }), "setBuilderFee", [id, 50]],
      [
        transferOwnershipTransaction(registry, { builderId: id, pendingOwner: zeroAddress }),
        "transferOwnership",
        [id, zeroAddress],
      ],
      [acceptOwnershipTransaction(registry, { builderId: id }), "acceptOwnership", [id]],
    ] as const;
    for (const [tx, functionName, args] of cases) {
      expect(tx).toMatchObject({ to: registry, value: 0n, chainId: CHAIN_ID });
      expect(decode(tx.data)).toEqual({ functionName, args });
    }
  });

  it("builds the same transactions from an action request naming the builder by its code", () => {
    const id = builderIdOf("acme-app");
    expect(registryTransaction(registry, { action: "set-fee", code: "acme-app", builderFeeBps: 7 })).toEqual(
      setBuilderFeeTransaction(registry, { builderId: id, builderFeeBps: 7 }),
    );
    expect(registryTransaction(registry, { action: "accept-ownership", code: "acme-app" })).toEqual(
      acceptOwnershipTransaction(registry, { builderId: id }),
    );
    expect(
      registryTransaction(registry, {
        action: "register",
        code: "acme-app",
        recipient: wallet,
        builderFeeBps: 0,
      }).data,
    ).toBe(registerTransaction(registry, { code: "acme-app", recipient: wallet, builderFeeBps: 0 }).data);
  });

  it("refuses what the registry would refuse for its shape, naming the field", () => {
    const bad: [() => unknown, string][] = [
      [() => registerTransaction(registry, { code: "no", recipient: wallet, builderFeeBps: 1 }), "code"],
      [
        () => registerTransaction(registry, { code: "has space", recipient: wallet, builderFeeBps: 1 }),
        "code",
      ],
      [
        () => registerTransaction(registry, { code: "acme", recipient: zeroAddress, builderFeeBps: 1 }),
        "recipient",
      ],
      [
        () => registerTransaction(registry, { code: "acme", recipient: "0x1234", builderFeeBps: 1 }),
        "recipient",
      ],
      // A mixed-case address with a broken EIP-55 checksum is a typo, not a wallet.
      [
        () =>
          registerTransaction(registry, {
            code: "acme",
            recipient: "0x70997970c51812dc3A010C7d01b50e0d17dc79C8",
            builderFeeBps: 1,
          }),
        "recipient",
      ],
      [
        () => registerTransaction(registry, { code: "acme", recipient: wallet, builderFeeBps: 51 }),
        "builderFeeBps",
      ],
      [
        () => registerTransaction(registry, { code: "acme", recipient: wallet, builderFeeBps: 1.5 }),
        "builderFeeBps",
      ],
      [() => setBuilderFeeTransaction(registry, { builderId: "0x12", builderFeeBps: 1 }), "builderId"],
      [() => registryTransaction(registry, { action: "nope" } as never), "code"],
      [() => registryTransaction(registry, { action: "nope", code: "acme" } as never), "action"],
    ];
    for (const [build, field] of bad) {
      expect(build).toThrow(RegistryInputError);
      try {
        build();
      } catch (error) {
        expect((error as RegistryInputError).field).toBe(field);
      }
    }
  });
});
