/**
 * Where each official artifact lives inside node_modules. `format` says how its bytecode is laid out:
 * `truffle` (V2 `build/`: bare hex `bytecode`, `evm.deployedBytecode.object`), `hardhat` (V3 and the
 * Universal Router `artifacts/`: `bytecode` and `deployedBytecode` strings) or `forge` (V4 `out/`,
 * `foundry-out/`: objects with `immutableReferences`). `abi-only` artifacts are interfaces.
 */
export const OFFICIAL_ARTIFACTS = {
  WETH9: { path: "@uniswap/v2-periphery/build/WETH9.json", format: "truffle" },
  UniswapV2Factory: { path: "@uniswap/v2-core/build/UniswapV2Factory.json", format: "truffle" },
  UniswapV2Pair: { path: "@uniswap/v2-core/build/UniswapV2Pair.json", format: "truffle" },
  UniswapV2Router02: { path: "@uniswap/v2-periphery/build/UniswapV2Router02.json", format: "truffle" },
  UniswapV3Factory: {
    path: "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
    format: "hardhat",
  },
  UniswapV3Pool: {
    path: "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
    format: "hardhat",
  },
  NonfungiblePositionManager: {
    path: "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
    format: "hardhat",
  },
  SwapRouter: {
    path: "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
    format: "hardhat",
  },
  QuoterV2: {
    path: "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
    format: "hardhat",
  },
  PoolManager: { path: "@uniswap/v4-core/out/PoolManager.sol/PoolManager.json", format: "forge" },
  PositionManager: {
    path: "@uniswap/v4-periphery/foundry-out/PositionManager.sol/PositionManager.json",
    format: "forge",
  },
  StateView: { path: "@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json", format: "forge" },
  V4Quoter: { path: "@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json", format: "forge" },
  /** Hook used on the devnet's hooked V4 pools (which routing must exclude); returns selectors, no deltas. */
  EmptyTestHooks: { path: "@uniswap/v4-core/out/EmptyTestHooks.sol/EmptyTestHooks.json", format: "forge" },
  /** v4-core's liquidity test router: adds liquidity without the PositionManager (tests of key recovery). */
  PoolModifyLiquidityTest: {
    path: "@uniswap/v4-core/out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json",
    format: "forge",
  },
  UniversalRouter: {
    path: "@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json",
    format: "hardhat",
  },
  Permit2: {
    path: "@uniswap/v4-periphery/foundry-out/IAllowanceTransfer.sol/IAllowanceTransfer.default.json",
    format: "abi-only",
  },
  ERC20: {
    path: "@uniswap/v4-periphery/foundry-out/IERC20Metadata.sol/IERC20Metadata.default.json",
    format: "abi-only",
  },
} as const;

export type OfficialName = keyof typeof OFFICIAL_ARTIFACTS;

/** Official Permit2 runtime code, as Uniswap ships it for etching at the canonical address in tests. */
export const PERMIT2_SOURCE = "@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol";
/** Permit2 lives at this address on every chain; the devnet places it there too. */
export const PERMIT2_ADDRESS = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
