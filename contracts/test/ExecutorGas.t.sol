// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {GasFixture} from "./utils/GasFixture.sol";
import {Routes} from "./utils/Routes.sol";
// Uniswap's SwapRouter and Router02, as far as they are called here (the devnet's stand-ins call them too).
import {IStandInV2Router as IV2RouterSwap, IStandInV3Router as ISwapRouter} from "../devnet/aggregators/StandInSwaps.sol";

/// @dev The official Universal Router (its constructor parameters and `execute`), and Permit2's allowance.
struct RouterParameters {
    address permit2;
    address weth9;
    address v2Factory;
    address v3Factory;
    bytes32 pairInitCodeHash;
    bytes32 poolInitCodeHash;
    address v4PoolManager;
    address v3NFTPositionManager;
    address v4PositionManager;
    address spokePool;
}

interface IUniversalRouter {
    function execute(bytes calldata commands, bytes[] calldata inputs, uint256 deadline) external payable;
}

/// @dev SwapRouter02 (`@uniswap/swap-router-contracts`), as far as it is called here: no deadline in its
///      swaps' parameters.
interface ISwapRouter02 {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256 amountOut);

    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to)
        external
        payable
        returns (uint256 amountOut);
}

interface IPermit2Approve {
    function approve(address token, address spender, uint160 amount, uint48 expiration) external;
}

/// @notice Deterministic gas of one swap per route shape, for `.gas-snapshot` (`npm run snapshot:contracts`),
///         measured as `GasFixture` says, next to Uniswap's own routers on the same pools. Unless named
///         otherwise a swap carries both fees and the demo builder.
contract ExecutorGasTest is GasFixture {
    uint256 internal constant AMOUNT = 1_000e18;
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

    /// @dev The Universal Router, deployed and approved in `setUp` like the executor (SwapRouter is the
    ///      fixture's), so every contract and slot a measured call touches starts cold for all of them alike.
    IUniversalRouter internal universalRouter;
    /// @dev SwapRouter02, from its official artifact, deployed and approved alike.
    ISwapRouter02 internal swapRouter02;

    function setUp() public override {
        super.setUp();
        _deployReferenceRouters();
    }

    function _measure(IExecutor.SwapParams memory p, bytes memory route) internal {
        uint256 value = p.tokenIn == NATIVE ? p.amountIn : 0;
        vm.prank(alice);
        vm.resumeGasMetering();
        executor.swap{value: value}(p, route);
        vm.pauseGasMetering();
    }

    /// @dev The same single hops with no fee charged (both caps 0) for the demo builder: still recorded.
    function test_gas_v2_singleHop_noFees() public {
        vm.pauseGasMetering();
        _measure(_noFees(_params(address(tokA), address(tokB), AMOUNT, alice)), Routes.single(AMOUNT, Routes.v2(address(tokB))));
    }

    function test_gas_v3_singleHop_noFees() public {
        vm.pauseGasMetering();
        _measure(
            _noFees(_params(address(tokA), address(tokB), AMOUNT, alice)), Routes.single(AMOUNT, Routes.v3(address(tokB), 3000))
        );
    }

    /// @dev The service fee alone, no builder: how public and partner quotes' swaps settle.
    function test_gas_v3_singleHop_serviceFeeOnly() public {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _pairFee(_params(address(tokA), address(tokB), AMOUNT, alice));
        (p.builderId, p.maxBuilderFeeBps) = (bytes32(0), 0);
        _measure(p, Routes.single(AMOUNT, Routes.v3(address(tokB), 3000)));
    }

    /// @dev And unattributed: the swap alone, comparable with Uniswap's routers.
    function test_gas_v2_singleHop_unattributed() public {
        vm.pauseGasMetering();
        _measure(
            _unattributed(_params(address(tokA), address(tokB), AMOUNT, alice)), Routes.single(AMOUNT, Routes.v2(address(tokB)))
        );
    }

    function test_gas_v3_singleHop_unattributed() public {
        vm.pauseGasMetering();
        _measure(
            _unattributed(_params(address(tokA), address(tokB), AMOUNT, alice)),
            Routes.single(AMOUNT, Routes.v3(address(tokB), 3000))
        );
    }

    /// @dev Uniswap's own routers on the same pools and amounts, measured the same way: the reference figures.
    function test_gas_reference_swapRouter_v3_singleHop() public {
        vm.pauseGasMetering();
        ISwapRouter.ExactInputSingleParams memory p = ISwapRouter.ExactInputSingleParams(
            address(tokA), address(tokB), 3000, alice, block.timestamp + 600, AMOUNT, 0, 0
        );
        vm.prank(alice);
        vm.resumeGasMetering();
        swapRouter.exactInputSingle(p);
        vm.pauseGasMetering();
    }

    function test_gas_reference_router02_v2_singleHop() public {
        vm.pauseGasMetering();
        address[] memory path = new address[](2);
        (path[0], path[1]) = (address(tokA), address(tokB));
        vm.prank(alice);
        vm.resumeGasMetering();
        IV2RouterSwap(address(v2Router)).swapExactTokensForTokens(AMOUNT, 0, path, alice, block.timestamp + 600);
        vm.pauseGasMetering();
    }

    function test_gas_reference_swapRouter02_v3_singleHop() public {
        vm.pauseGasMetering();
        ISwapRouter02.ExactInputSingleParams memory p =
            ISwapRouter02.ExactInputSingleParams(address(tokA), address(tokB), 3000, alice, AMOUNT, 0, 0);
        vm.prank(alice);
        vm.resumeGasMetering();
        swapRouter02.exactInputSingle(p);
        vm.pauseGasMetering();
    }

    function test_gas_reference_swapRouter02_v2_singleHop() public {
        vm.pauseGasMetering();
        address[] memory path = new address[](2);
        (path[0], path[1]) = (address(tokA), address(tokB));
        vm.prank(alice);
        vm.resumeGasMetering();
        swapRouter02.swapExactTokensForTokens(AMOUNT, 0, path, alice);
        vm.pauseGasMetering();
    }

    function test_gas_reference_universalRouter_v3_singleHop() public {
        vm.pauseGasMetering();
        bytes memory input =
            abi.encode(alice, AMOUNT, uint256(0), abi.encodePacked(address(tokA), uint24(3000), address(tokB)), true);
        _universalRouterSwap(hex"00", input);
    }

    function test_gas_reference_universalRouter_v2_singleHop() public {
        vm.pauseGasMetering();
        address[] memory path = new address[](2);
        (path[0], path[1]) = (address(tokA), address(tokB));
        _universalRouterSwap(hex"08", abi.encode(alice, AMOUNT, uint256(0), path, true));
    }

    /// @dev One `execute` of `command` on the Universal Router, spending alice's tokA through Permit2.
    function _universalRouterSwap(bytes memory command, bytes memory input) private {
        bytes[] memory inputs = new bytes[](1);
        inputs[0] = input;
        vm.prank(alice);
        vm.resumeGasMetering();
        universalRouter.execute(command, inputs, block.timestamp + 600);
        vm.pauseGasMetering();
    }

    /// @dev The Universal Router (Permit2 at its canonical address, from the bytecode Uniswap ships for
    ///      tests) and SwapRouter02, from the official artifacts; they and SwapRouter are each allowed to spend
    ///      alice's tokA.
    function _deployReferenceRouters() private {
        vm.etch(PERMIT2, _permit2Runtime());
        universalRouter = IUniversalRouter(
            _deploy(
                bytes.concat(
                    vm.getCode(_path("universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json")),
                    abi.encode(
                        RouterParameters(
                            PERMIT2,
                            address(weth),
                            address(v2Factory),
                            address(v3Factory),
                            v2InitCodeHash,
                            v3InitCodeHash,
                            address(poolManager),
                            address(0),
                            address(0),
                            address(0)
                        )
                    )
                )
            )
        );
        swapRouter02 = ISwapRouter02(
            _deploy(
                bytes.concat(
                    vm.getCode(_path("swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json")),
                    abi.encode(address(v2Factory), address(v3Factory), address(0), address(weth))
                )
            )
        );
        vm.startPrank(alice);
        tokA.approve(address(swapRouter02), type(uint256).max);
        tokA.approve(address(swapRouter), type(uint256).max);
        tokA.approve(address(v2Router), type(uint256).max);
        tokA.approve(PERMIT2, type(uint256).max);
        IPermit2Approve(PERMIT2).approve(address(tokA), address(universalRouter), type(uint160).max, type(uint48).max);
        vm.stopPrank();
    }

    /// @dev Permit2's runtime code, from the file Uniswap ships for etching it in tests (as the devnet does).
    function _permit2Runtime() private view returns (bytes memory) {
        bytes memory source = bytes(vm.readFile(_path("v4-periphery/lib/permit2/test/utils/DeployPermit2.sol")));
        return vm.parseBytes(_between(source, 'hex"', '"'));
    }

    function _between(bytes memory text, bytes memory open, bytes memory close) private pure returns (string memory) {
        uint256 start = _find(text, open, 0) + open.length;
        uint256 end = _find(text, close, start);
        bytes memory out = new bytes(end - start);
        for (uint256 i; i < out.length; ++i) {
            out[i] = text[start + i];
        }
        return string.concat("0x", string(out));
    }

    function _find(bytes memory text, bytes memory needle, uint256 from) private pure returns (uint256) {
        for (uint256 i = from; i + needle.length <= text.length; ++i) {
            bool found = true;
            for (uint256 j; j < needle.length && found; ++j) {
                found = text[i + j] == needle[j];
            }
            if (found) return i;
        }
        revert("not found");
    }

    /// @dev A/B has a fee of its own, so the service's calldata says so (`maxRouteFeeBps` bit 15): the pair's
    ///      word is read in the policy word's place.
    function test_gas_v2_singleHop() public {
        vm.pauseGasMetering();
        _measure(_pairFee(_params(address(tokA), address(tokB), AMOUNT, alice)), Routes.single(AMOUNT, Routes.v2(address(tokB))));
    }

    /// @dev The same swap from calldata that does not say the pair has a fee of its own: the policy word's
    ///      filter sends it to the pair's word, one more slot.
    function test_gas_v2_singleHop_pairFeeUnsaid() public {
        vm.pauseGasMetering();
        _measure(_params(address(tokA), address(tokB), AMOUNT, alice), Routes.single(AMOUNT, Routes.v2(address(tokB))));
    }

    function test_gas_v2_twoHops_pairToPair() public {
        vm.pauseGasMetering();
        _measure(
            _params(address(tokA), address(tokC), AMOUNT, alice),
            Routes.route(Routes.branch(AMOUNT, Routes.v2(address(tokB)), Routes.v2(address(tokC))))
        );
    }

    function test_gas_v3_singleHop() public {
        vm.pauseGasMetering();
        _measure(_pairFee(_params(address(tokA), address(tokB), AMOUNT, alice)), Routes.single(AMOUNT, Routes.v3(address(tokB), 3000)));
    }

    function test_gas_v3_singleHop_pairFeeUnsaid() public {
        vm.pauseGasMetering();
        _measure(_params(address(tokA), address(tokB), AMOUNT, alice), Routes.single(AMOUNT, Routes.v3(address(tokB), 3000)));
    }

    function test_gas_v4_singleHop() public {
        vm.pauseGasMetering();
        _measure(
            _params(address(tokB), address(tokC), AMOUNT, alice), Routes.single(AMOUNT, Routes.v4(address(tokC), 500, 10))
        );
    }

    function test_gas_v4_twoHopRun() public {
        vm.pauseGasMetering();
        _measure(
            _params(address(tokA), address(tokC), AMOUNT, alice),
            Routes.route(Routes.branch(AMOUNT, Routes.v4(address(tokB), 3000, 60), Routes.v4(address(tokC), 500, 10)))
        );
    }

    function test_gas_mixed_v2_v3_v4_toEth() public {
        vm.pauseGasMetering();
        _measure(
            _params(address(tokA), NATIVE, AMOUNT, bob),
            Routes.route(
                Routes.branch(AMOUNT, Routes.v2(address(tokB)), Routes.v3(address(tokC), 3000), Routes.v4(NATIVE, 500, 10))
            )
        );
    }

    function test_gas_split_threeBranches() public {
        vm.pauseGasMetering();
        address b = address(tokB);
        _measure(
            _params(address(tokA), b, 3 * AMOUNT, alice),
            Routes.route(
                Routes.branch(AMOUNT, Routes.v2(b)), Routes.branch(AMOUNT, Routes.v3(b, 3000)), Routes.branch(AMOUNT, Routes.v4(b, 3000, 60))
            )
        );
    }

    function test_gas_ethIn_v4() public {
        vm.pauseGasMetering();
        _measure(_params(NATIVE, address(tokA), 1e18, alice), Routes.single(1e18, Routes.v4(address(tokA), 3000, 60)));
    }

    function test_gas_ethIn_v3_wraps() public {
        vm.pauseGasMetering();
        _measure(_params(NATIVE, address(tokA), 1e18, alice), Routes.single(1e18, Routes.v3(address(tokA), 3000)));
    }

    function test_gas_ethOut_v3_unwraps() public {
        vm.pauseGasMetering();
        _measure(_params(address(tokA), NATIVE, AMOUNT, bob), Routes.single(AMOUNT, Routes.v3(NATIVE, 3000)));
    }

    function test_gas_registry_register() public {
        vm.prank(bob);
        registry.register("gas-builder", bob, 10);
    }

    /// @dev The builder's wallet claims its fees in B, then the treasury the service's (credited under the
    ///      builder's wallet by the earlier swap).
    function test_gas_claim_builder() public {
        vm.prank(builderWallet);
        collector.claim(address(tokB), builderWallet);
    }

    function test_gas_claim_service() public {
        address[] memory accounts = new address[](1);
        accounts[0] = builderWallet;
        vm.prank(treasury);
        collector.claimService(address(tokB), accounts, treasury);
    }
}
