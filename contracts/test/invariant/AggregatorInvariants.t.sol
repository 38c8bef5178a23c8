// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {AggregatorFixture} from "../utils/AggregatorFixture.sol";
import {AggregatorHandler} from "./AggregatorHandler.sol";
import {Credits} from "../utils/Credits.sol";

/// @notice The aggregator path's invariants under random sequences of swaps through both entries, refused
///         calldata, stray ETH and builder policy changes, on the devnet stand-ins and the official Uniswap
///         bytecode: after every call the executor holds nothing but its credits and no one can spend its
///         tokens, every recipient gets at least minOut, fees stay within their caps (never a service fee),
///         and the payer is the only source of funds.
contract AggregatorInvariantsTest is AggregatorFixture {
    AggregatorHandler internal handler;
    address internal carol = makeAddr("carol");
    address[] internal tokens;

    function setUp() public override {
        super.setUp();
        vm.warp(1_700_000_000);
        _fund(carol, 1e24);
        address[] memory actors = new address[](3);
        (actors[0], actors[1], actors[2]) = (alice, bob, carol);
        handler = new AggregatorHandler(
            AggregatorHandler.Env({
                executor: executor,
                registry: registry,
                collector: collector,
                router: aggRouter,
                holder: holder,
                settler: settler,
                staleSettler: staleSettler,
                settlerRegistry: settlerRegistry,
                tokA: address(tokA),
                tokB: address(tokB),
                weth: address(weth),
                gov: gov,
                treasury: treasury,
                builderId: builderId,
                builderWallet: builderWallet,
                actors: actors
            }),
            MAX_BUILDER_FEE
        );
        // The handler switches the active settler as the registry's owner (this contract) and back.
        assertEq(settlerRegistry.owner(), address(this), "settler registry owner");
        tokens = [address(tokA), address(tokB), address(tokC), address(tax), address(weth)];
        targetContract(address(handler));
    }

    /// @notice Every invariant, checked after every call. One invariant function, not one each: forge runs a
    ///         separate campaign per invariant function, and the CI profile's 1,000 runs of depth 20 per
    ///         campaign are what costs the time (docs/aggregator-execution.md, "Tests").
    function invariant_aggregatorPath() public {
        _executorHoldsNothing();
        _executorAllowsNothing();
        assertEq(handler.violationsMinOut(), 0, "a recipient received less than minOut");
        assertEq(handler.violationsFees(), 0, "a service fee, or a builder fee above min(quoted, cap, 50)");
        assertEq(handler.violationsAccounting(), 0, "recipient + fee != gross, or not one Settled event");
        assertEq(handler.violationsFunds(), 0, "funds moved from someone other than the payer");
        assertEq(handler.violationsRefusal(), 0, "calldata or ETH the executor must refuse went through");
    }

    /// @dev Of every token the executor holds exactly the fees it owes; of ETH at least (a hostile
    ///      aggregator may force ETH on it: dust it owns, never a payer's).
    function _executorHoldsNothing() internal view {
        address[] memory accounts = handler.feeAccounts();
        assertGe(address(executor).balance, Credits.owed(collector, address(0), accounts), "executor ETH");
        for (uint256 i; i < tokens.length; ++i) {
            assertEq(IERC20(tokens[i]).balanceOf(address(executor)), Credits.owed(collector, tokens[i], accounts), "executor token");
        }
    }

    function _executorAllowsNothing() internal {
        for (uint256 i; i < tokens.length; ++i) {
            _assertAllowsNothing(tokens[i]);
        }
    }

    /// @dev With -vv: how much of each run actually swapped (a handler that only reverts proves nothing).
    function afterInvariant() public {
        emit log_named_uint("swaps succeeded", handler.swapsSucceeded());
        emit log_named_uint("swaps reverted", handler.swapsReverted());
        emit log_named_uint("refusals checked", handler.refusalsChecked());
    }
}
