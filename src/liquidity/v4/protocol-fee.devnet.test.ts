import { createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { junctionChain } from "../../chain/chain.ts";
import { poolManagerAbi } from "../../contracts/abis/PoolManager.ts";
import { v4QuoterAbi } from "../../contracts/abis/V4Quoter.ts";
import { createRandom } from "../../devnet/random.ts";
import { stepEdges } from "../concentrated/step-edges.ts";
import { loadPoolStates } from "../read/load-pool-states.ts";
import type { V4PoolSnapshot } from "./snapshot.ts";
import { quoteV4ExactIn } from "./swap.ts";
import { v4SwapFee } from "./swap-fee.ts";

/**
 * V4's protocol fee is taken from the input before the LP fee (ProtocolFeeLibrary.calculateSwapFee). The
 * seeded devnet charges none, so this test has the PoolManager's owner appoint itself fee controller,
 * sets a different fee per direction on every routable V4 pool, and checks quotes against V4Quoter.
 */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

describe("V4 protocol fee", () => {
  it("composes protocol and LP fees exactly as the PoolManager does", async () => {
    const { manifest, publicClient } = devnet;
    const owner = manifest.accounts.find((a) => a.role === "deployer")!;
    const wallet = createWalletClient({
      chain: junctionChain(devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
      account: privateKeyToAccount(owner.privateKey as Hex),
    });
    const poolManager = manifest.contracts.v4PoolManager;
    const send = async (request: Parameters<typeof wallet.writeContract>[0]) => {
      const receipt = await publicClient.waitForTransactionReceipt({
        hash: await wallet.writeContract(request),
      });
      expect(receipt.status).toBe("success");
    };
    await send({
      address: poolManager,
      abi: poolManagerAbi,
      functionName: "setProtocolFeeController",
      args: [owner.address],
    } as never);

    const random = createRandom(0x4663_f11);
    const pools = manifest.pools.filter((p) => p.kind === "v4" && p.routable);
    const fees = new Map<string, number>();
    for (const pool of pools) {
      if (pool.kind !== "v4") continue;
      // Include both bounds: no fee one way, the 0.1% maximum the other.
      const [zeroForOne, oneForZero] =
        fees.size === 0 ? [0, 1000] : [random.int(0, 1000), random.int(0, 1000)];
      const packed = zeroForOne | (oneForZero << 12);
      fees.set(pool.poolId, packed);
      await send({
        address: poolManager,
        abi: poolManagerAbi,
        functionName: "setProtocolFee",
        args: [pool.key, packed],
      } as never);
    }

    const blockNumber = await publicClient.getBlockNumber();
    const loaded = await loadPoolStates(publicClient, pools as never, {
      blockNumber,
      v4PoolManager: poolManager,
    });
    let cases = 0;
    let differsWithoutProtocolFee = 0;
    for (const [i, load] of loaded.pools.entries()) {
      const pool = pools[i]!;
      if (load.status !== "loaded" || load.snapshot.kind !== "v4" || pool.kind !== "v4")
        throw new Error("not loaded");
      const snapshot: V4PoolSnapshot = load.snapshot;
      expect(snapshot.protocolFee).toBe(fees.get(pool.poolId));
      for (const zeroForOne of [true, false]) {
        const { edges } = stepEdges(snapshot, "v4", zeroForOne, v4SwapFee(snapshot, zeroForOne));
        const amounts = [1n, 999n, ...edges.slice(0, 4), edges[edges.length - 1]! / 3n];
        for (const amount of amounts.filter((a) => a > 0n)) {
          const ours = quoteV4ExactIn(snapshot, zeroForOne, amount);
          if (ours.status !== "filled") continue;
          const { result } = await publicClient.simulateContract({
            address: manifest.contracts.v4Quoter,
            abi: v4QuoterAbi,
            functionName: "quoteExactInputSingle",
            args: [{ poolKey: pool.key, zeroForOne, exactAmount: amount, hookData: "0x" }],
            blockNumber,
          });
          expect(ours.amountOut, `${pool.symbols.join("/")} ${zeroForOne} ${amount}`).toBe(result[0]);
          const lpOnly = quoteV4ExactIn({ ...snapshot, protocolFee: 0 }, zeroForOne, amount);
          if (lpOnly.status === "filled" && lpOnly.amountOut !== result[0]) differsWithoutProtocolFee += 1;
          cases += 1;
        }
      }
    }
    console.log(
      `V4 protocol fee: ${cases} cases wei-exact on ${pools.length} pools; ${differsWithoutProtocolFee} would be wrong without the protocol fee`,
    );
    expect(differsWithoutProtocolFee).toBeGreaterThan(cases / 3);
  });
});
