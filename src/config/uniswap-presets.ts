/**
 * Uniswap's own addresses, for `junction deploy` plans that name a preset instead of listing them
 * (`"uniswap": "ethereum-canonical"`). Init code hashes are the official artifacts' (`keccak256` of the
 * UniswapV2Pair and UniswapV3Pool creation code in @uniswap/v2-core and @uniswap/v3-core; a fast test
 * checks them). A preset is a claim about where the contracts are, not proof: deploy still requires code
 * at every address, and the service checks the wiring again at each start.
 */
export const UNISWAP_PRESETS = {
  /**
   * The addresses Uniswap deployed on Ethereum mainnet, which chains that replay Uniswap's deployments
   * (same deployers, nonces and CREATE2 salts) share.
   */
  "ethereum-canonical": {
    weth9: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    permit2: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    v2Factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f",
    v2Router02: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
    v2PairInitCodeHash: "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f",
    v3Factory: "0x1F98431c8aD98523631AE4a59f267346ea31F984",
    v3PositionManager: "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
    v3SwapRouter: "0xE592427A0AEce92De3Edae1F2f4f7BfB6f45e2F8",
    v3QuoterV2: "0x61fFE014bA17989E743c5F6cB21bF9697530B21e",
    v3PoolInitCodeHash: "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54",
    v4PoolManager: "0x000000000004444c5dc75cB358380D2e3dE08A90",
    v4PositionManager: "0xbD216513d74C8cf14cf4747E6AaA6420FF64ee9e",
    v4StateView: "0x7fFE42C4a5DEeA5b0feC41C94C136Cf115597227",
    v4Quoter: "0x52F0E24D1c21C8A0cB1e5a5dD6198556BD9E1203",
    universalRouter: "0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af",
  },
} as const;

export type UniswapPresetName = keyof typeof UNISWAP_PRESETS;
export const UNISWAP_PRESET_NAMES = Object.keys(UNISWAP_PRESETS) as [
  UniswapPresetName,
  ...UniswapPresetName[],
];
