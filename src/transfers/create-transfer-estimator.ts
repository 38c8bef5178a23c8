import type { Address, PublicClient } from "viem";
import type { TransfersConfig } from "../config/config.ts";
import type { Deployment } from "../config/deployment.ts";
import { type AssetBook, createAssetBook } from "./assets.ts";
import type { BridgeProvider, BridgeProviderId } from "./bridge-provider.ts";
import type { TransferEstimator } from "./estimate-transfer.ts";
import { createBridgeA } from "./providers/bridge-a.ts";
import { createBridgeB } from "./providers/bridge-b.ts";
import { registryTreasury } from "./treasury.ts";

/**
 * Everything transfer estimates need from the running service: the configured bridge providers (URL and
 * credential from settings; `providerUrls` fills in the devnet stand-ins for providers left unset), the
 * asset book (chain 4663's ETH and stable asset from the deployment: WETH9 and the starter list's 6-decimal
 * `USDC`), and the registry's treasury.
 */
export function createTransferEstimator(options: {
  config: TransfersConfig;
  providerUrls?: Partial<Record<BridgeProviderId, string>>;
  deployment: Deployment;
  client: PublicClient;
  onProviderBug?: TransferEstimator["onProviderBug"];
}): TransferEstimator {
  const { config, providerUrls = {}, deployment } = options;
  const providers: BridgeProvider[] = [];
  const bridgeA =
    config.bridgeA ?? (providerUrls["bridge-a"] ? { url: providerUrls["bridge-a"] } : undefined);
  if (bridgeA)
    providers.push(
      createBridgeA({
        baseUrl: bridgeA.url,
        integrator: config.integrator,
        ...(bridgeA.apiKey ? { apiKey: bridgeA.apiKey } : {}),
      }),
    );
  const bridgeB =
    config.bridgeB ?? (providerUrls["bridge-b"] ? { url: providerUrls["bridge-b"] } : undefined);
  if (bridgeB)
    providers.push(
      createBridgeB({
        baseUrl: bridgeB.url,
        integrator: config.integrator,
        ...(bridgeB.apiKey ? { apiKey: bridgeB.apiKey } : {}),
      }),
    );
  return {
    providers,
    assets: deploymentAssetBook(deployment),
    treasury: registryTreasury(options.client, deployment.contracts.builderRegistry),
    ...(options.onProviderBug ? { onProviderBug: options.onProviderBug } : {}),
  };
}

/** The asset book of a deployment: chain 4663's WETH9, and its stable asset when the list has a 6-decimal USDC. */
export function deploymentAssetBook(deployment: Deployment): AssetBook {
  const stable = deployment.tokens.find((token) => token.symbol === "USDC" && token.decimals === 6);
  return createAssetBook({
    weth9: deployment.contracts.weth9,
    ...(stable ? { stable: stable.address as Address } : {}),
  });
}
