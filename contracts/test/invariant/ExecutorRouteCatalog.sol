// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// forge-std only through Test.sol: importing its files by two paths makes solc-js crash on a cold build.
import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {BuilderRegistry} from "../../src/BuilderRegistry.sol";
import {Executor} from "../../src/Executor.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";
import {ReentrantToken} from "../hostile/ReentrantToken.sol";
import {Routes} from "../utils/Routes.sol";

/// @notice What `ExecutorHandler` swaps with: the fixture it drives (`Env`) and its catalog of route shapes
///         over the fixture's pools (every pool kind, splits, multi-hop, native ETH in and out, a
///         fee-on-transfer output), with the swap terms and builders a random call picks from.
abstract contract ExecutorRouteCatalog is Test {
    struct Env {
        Executor executor;
        BuilderRegistry registry;
        ISettlementCollector collector;
        address tokA;
        address tokB;
        address tokC;
        address tax;
        address weth;
        ReentrantToken evil;
        address gov;
        address treasury;
        bytes32 builderId;
        address builderWallet;
        bytes32 suspendedId;
        address suspendedWallet;
        address poolManager;
        address[] canonicalPools;
        address[] actors;
    }

    address internal constant NATIVE = address(0);
    uint256 internal constant SHAPES = 10;

    Env internal env;

    // ------------------------------------------------------------------ route catalog

    /// @dev One of SHAPES route shapes over the fixture's pools, at a bounded amount.
    function _build(uint256 shape, uint256 amountSeed, uint256 actorSeed)
        internal
        view
        returns (IExecutor.SwapParams memory p, bytes memory route)
    {
        uint256 amount = bound(amountSeed, 1e12, 50_000e18);
        address recipient = env.actors[(actorSeed / 7) % env.actors.length];
        (address a, address b, address c) = (env.tokA, env.tokB, env.tokC);
        uint256 s = shape % SHAPES;
        if (s == 0) {
            p = _params(a, b, amount, recipient);
            route = Routes.single(amount, Routes.v2(b));
        } else if (s == 1) {
            p = _params(b, a, amount, recipient);
            route = Routes.single(amount, Routes.v3(a, 500));
        } else if (s == 2) {
            p = _params(b, c, amount, recipient);
            route = Routes.single(amount, Routes.v4(c, 500, 10));
        } else if (s == 3) {
            p = _params(a, NATIVE, amount, recipient);
            route = Routes.route(Routes.branch(amount, Routes.v2(b), Routes.v3(c, 3000), Routes.v4(NATIVE, 500, 10)));
        } else if (s == 4) {
            p = _params(a, b, amount, recipient);
            uint256 x = amount / 3;
            route = Routes.route(
                Routes.branch(x, Routes.v2(b)), Routes.branch(x, Routes.v3(b, 3000)), Routes.branch(amount - 2 * x, Routes.v4(b, 3000, 60))
            );
        } else if (s == 5) {
            amount = bound(amountSeed, 1e12, 5_000e18);
            p = _params(NATIVE, a, amount, recipient);
            route = Routes.route(Routes.branch(amount / 2, Routes.v4(a, 3000, 60)), Routes.branch(amount - amount / 2, Routes.v3(a, 3000)));
        } else if (s == 6) {
            p = _params(a, NATIVE, amount, recipient);
            route = Routes.single(amount, Routes.v3(NATIVE, 3000));
        } else if (s == 7) {
            amount = bound(amountSeed, 1e12, 5_000e18);
            p = _params(NATIVE, b, amount, recipient);
            route = Routes.route(Routes.branch(amount, Routes.v3(a, 3000), Routes.v4(b, 3000, 60)));
        } else if (s == 8) {
            p = _params(a, env.tax, amount, recipient);
            route = Routes.single(amount, Routes.v2(env.tax));
        } else {
            p = _params(a, c, amount, recipient);
            route = Routes.route(Routes.branch(amount, Routes.v4(b, 3000, 60), Routes.v4(c, 500, 10)));
        }
    }

    function _params(address tokenIn, address tokenOut, uint256 amountIn, address recipient)
        internal
        view
        returns (IExecutor.SwapParams memory)
    {
        return IExecutor.SwapParams({
            tokenIn: tokenIn,
            tokenOut: tokenOut,
            amountIn: amountIn,
            minOut: 0,
            recipient: recipient,
            deadline: block.timestamp + 60,
            maxRouteFeeBps: 50,
            maxBuilderFeeBps: 50,
            builderId: env.builderId,
            quoteId: keccak256(abi.encode(amountIn)),
            keyIdHash: bytes32(uint256(1))
        });
    }

    function _builder(uint8 sel) internal view returns (bytes32) {
        uint256 which = sel % 4;
        if (which == 0) return env.builderId;
        if (which == 1) return env.suspendedId;
        if (which == 2) return keccak256(abi.encode("unknown", sel));
        return bytes32(0);
    }

    function _balance(address token, address who) internal view returns (uint256) {
        return token == NATIVE ? who.balance : IERC20(token).balanceOf(who);
    }

    function _pair(address x, address y) internal pure returns (bytes32) {
        return x < y ? keccak256(abi.encodePacked(x, y)) : keccak256(abi.encodePacked(y, x));
    }

    function _min(uint16 x, uint16 y) internal pure returns (uint16) {
        return x < y ? x : y;
    }
}
