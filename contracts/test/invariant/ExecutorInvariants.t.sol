// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {PoolKey} from "../../src/interfaces/external/IPoolManager.sol";
import {ReentrantToken} from "../hostile/ReentrantToken.sol";
import {JunctionFixture} from "../utils/JunctionFixture.sol";
import {IV2PairFull, IV3PoolFull} from "../utils/UniswapInterfaces.sol";
import {ExecutorHandler} from "./ExecutorHandler.sol";
import {ExecutorRouteCatalog} from "./ExecutorRouteCatalog.sol";
import {Credits} from "../utils/Credits.sol";

/// @notice The executor's invariants (docs/architecture.md, "The contracts"), under random sequences of
///         swaps, policy changes, expired deadlines, wrong msg.value, spoofed callbacks and a reentrant
///         token, on the official Uniswap bytecode. The handler counts violations in ghost variables;
///         these functions assert none occurred.
contract ExecutorInvariantsTest is JunctionFixture {
    ExecutorHandler internal handler;
    ReentrantToken internal evil;
    address internal carol = makeAddr("carol");
    address internal suspendedWallet = makeAddr("suspendedWallet");
    bytes32 internal suspendedId;
    address[] internal tokens;

    function setUp() public override {
        super.setUp();
        vm.warp(1_700_000_000);
        _fund(carol, 1e24);
        evil = new ReentrantToken(address(this), 1e30);
        address pool500 = _evilPools();
        address[3] memory actors = [alice, bob, carol];
        for (uint256 i; i < actors.length; ++i) {
            evil.transfer(actors[i], 1e24);
            vm.prank(actors[i]);
            evil.approve(address(executor), type(uint256).max);
        }

        vm.prank(makeAddr("suspendedOwner"));
        suspendedId = registry.register("suspended-builder", suspendedWallet, 50);
        vm.prank(gov);
        registry.setBuilderEnabled(suspendedId, false);

        address[] memory canonical = new address[](6);
        canonical[0] = pool500; // EVIL/A at 0.05%: the "other fee tier" the reentrant token impersonates
        canonical[1] = _v3Pool(address(tokA), address(tokB), 3000);
        canonical[2] = _v3Pool(address(tokA), address(tokB), 500);
        canonical[3] = _v3Pool(address(weth), address(tokA), 3000);
        canonical[4] = _v2Pair(address(tokA), address(tokB));
        canonical[5] = address(quoterV2);
        address[] memory actorList = new address[](3);
        (actorList[0], actorList[1], actorList[2]) = (alice, bob, carol);
        handler = new ExecutorHandler(
            ExecutorRouteCatalog.Env({
                executor: executor,
                registry: registry,
                collector: collector,
                tokA: address(tokA),
                tokB: address(tokB),
                tokC: address(tokC),
                tax: address(tax),
                weth: address(weth),
                evil: evil,
                gov: gov,
                treasury: treasury,
                builderId: builderId,
                builderWallet: builderWallet,
                suspendedId: suspendedId,
                suspendedWallet: suspendedWallet,
                poolManager: address(poolManager),
                canonicalPools: canonical,
                actors: actorList
            }),
            DEFAULT_ROUTE_FEE,
            _pairKey(address(tokA), address(tokB)),
            AB_ROUTE_FEE,
            MAX_BUILDER_FEE
        );
        tokens = [address(tokA), address(tokB), address(tokC), address(tax), address(weth), address(evil)];
        targetContract(address(handler));
    }

    function invariant_recipientGetsAtLeastMinOut() public view {
        assertEq(handler.violationsMinOut(), 0, "a recipient received less than minOut");
    }

    function invariant_feesNeverAboveCapNorQuote() public view {
        assertEq(handler.violationsFees(), 0, "a fee above min(quoted, policy, 50 bps)");
        assertEq(handler.violationsAccounting(), 0, "recipient + fees != gross, or not one Settled event");
    }

    function invariant_onlyTheSwappedPoolAndPoolManagerCallBack() public view {
        assertEq(handler.violationsCallback(), 0, "a spoofed callback was accepted");
        assertEq(evil.successes(), 0, "an attack from inside a swap succeeded");
    }

    function invariant_expiredDeadlinesRevert() public view {
        assertEq(handler.violationsDeadline(), 0, "an expired swap went through");
    }

    function invariant_msgValueMatchesNativeInput() public view {
        assertEq(handler.violationsMsgValue(), 0, "a swap with the wrong msg.value went through");
    }

    function invariant_disabledOrUnknownBuilderNeverPaid() public view {
        assertEq(handler.violationsUnpaidBuilder(), 0, "an unpayable builder was charged for");
        for (uint256 i; i < tokens.length; ++i) {
            assertEq(collector.claimable(suspendedWallet, tokens[i]), 0, "suspended builder credited");
        }
        assertEq(collector.claimable(suspendedWallet, address(0)), 0, "suspended builder credited ETH");
    }

    function invariant_reentrantTokenCannotSteal() public view {
        assertEq(evil.successes(), 0, "a reentrant call succeeded");
        for (uint256 i; i < tokens.length; ++i) {
            if (tokens[i] != address(evil)) assertEq(IERC20(tokens[i]).balanceOf(address(evil)), 0, "the token took funds");
            assertEq(collector.claimable(address(evil), tokens[i]), 0, "the token was credited fees");
        }
    }

    /// @dev Accrued fees move only by their owners' claims, each paying exactly what was credited.
    function invariant_onlyOwnersMoveCredits_exactly() public view {
        assertEq(handler.violationsClaims(), 0, "a claim moved fees it should not have, or not exactly");
    }

    /// @dev The executor holds exactly the fees it owes, and nothing else: no payer's funds stay behind and no
    ///      swap spends a credit (the handler sends it no dust).
    function invariant_executorHoldsExactlyItsCredits() public view {
        address[] memory accounts = handler.feeAccounts();
        for (uint256 i; i < tokens.length; ++i) {
            assertEq(IERC20(tokens[i]).balanceOf(address(executor)), Credits.owed(collector, tokens[i], accounts), "token");
        }
        assertEq(address(executor).balance, Credits.owed(collector, address(0), accounts), "ETH");
    }

    /// @dev The executor charges by its copy of the registry's policy: equal to the registry's for the pair the
    ///      handler moves (both ways) and pairs on the default, with the demo builder, the suspended one, none
    ///      and an unknown one.
    function invariant_executorCopyOfThePolicyEqualsTheRegistry() public view {
        bytes32[4] memory builders = [builderId, suspendedId, bytes32(0), keccak256("unknown")];
        address[2][4] memory pairs = [
            [address(tokA), address(tokB)],
            [address(tokB), address(tokA)],
            [address(tokA), address(tokC)],
            [address(weth), address(tokB)]
        ];
        for (uint256 i; i < pairs.length; ++i) {
            for (uint256 b; b < builders.length; ++b) {
                uint256 expected = registry.feeTerms(pairs[i][0], pairs[i][1], builders[b]);
                assertEq(
                    executor.feeTerms(pairs[i][0], pairs[i][1], builders[b]),
                    expected,
                    "the executor's copy differs from the registry"
                );
                assertEq(
                    executor.pairFirstFeeTerms(pairs[i][0], pairs[i][1], builders[b]),
                    expected,
                    "read pair first, the executor's copy differs from the registry"
                );
            }
        }
    }

    /// @dev With -vv: how much of each run actually swapped (a handler that only reverts proves nothing).
    function afterInvariant() public {
        emit log_named_uint("swaps succeeded", handler.swapsSucceeded());
        emit log_named_uint("swaps reverted", handler.swapsReverted());
        emit log_named_uint("callbacks rejected", handler.callbacksRejected());
        emit log_named_uint("reentrant swaps", handler.reentrancyAttempts());
        emit log_named_uint("claims paid", handler.claimsPaid());
    }

    function _evilPools() private returns (address pool500) {
        address e = address(evil);
        address a = address(tokA);
        address pair = v2Factory.createPair(e, a);
        evil.transfer(pair, 1_000_000e18);
        tokA.transfer(pair, 1_000_000e18);
        IV2PairFull(pair).mint(address(this));
        _evilV3(3000, 60);
        pool500 = _evilV3(500, 10);
        PoolKey memory key = _v4Key(e, a, 3000, 60);
        poolManager.initialize(key, PRICE_ONE);
        evil.transfer(address(lp), 2_000_000e18);
        tokA.transfer(address(lp), 2_000_000e18);
        lp.addV4(key, -887220, 887220, 1e24);
    }

    function _evilV3(uint24 fee, int24 spacing) private returns (address pool) {
        pool = v3Factory.createPool(address(evil), address(tokA), fee);
        IV3PoolFull(pool).initialize(PRICE_ONE);
        evil.transfer(address(lp), 2_000_000e18);
        tokA.transfer(address(lp), 2_000_000e18);
        lp.mintV3(IV3PoolFull(pool), -(887272 / spacing) * spacing, (887272 / spacing) * spacing, 1e24);
    }

    function _pairKey(address x, address y) private pure returns (bytes32) {
        return x < y ? keccak256(abi.encodePacked(x, y)) : keccak256(abi.encodePacked(y, x));
    }
}
