// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {PoolKey} from "../src/interfaces/external/IPoolManager.sol";
import {EthRejecter} from "./hostile/CallbackSpoofer.sol";
import {JunctionFixture} from "./utils/JunctionFixture.sol";
import {Routes} from "./utils/Routes.sol";
import {IV3PoolFull} from "./utils/UniswapInterfaces.sol";

/// @notice One test per revert path of `Executor.swap` and of the route validation.
contract ExecutorRevertsTest is JunctionFixture {
    address internal a;
    address internal b;
    address internal c;
    uint256 internal constant AMOUNT = 1_000e18;

    function setUp() public override {
        super.setUp();
        a = address(tokA);
        b = address(tokB);
        c = address(tokC);
    }

    function _v2Route() internal view returns (bytes memory) {
        return Routes.single(AMOUNT, Routes.v2(b));
    }

    function _expectSwapRevert(IExecutor.SwapParams memory p, bytes memory route, bytes memory err) internal {
        vm.expectRevert(err);
        _swapAs(alice, p, route);
    }

    // ------------------------------------------------------------------ terms

    function test_revert_deadlineExpired() public {
        IExecutor.SwapParams memory p = _params(a, b, AMOUNT, alice);
        p.deadline = block.timestamp - 1;
        _expectSwapRevert(p, _v2Route(), abi.encodeWithSelector(IExecutor.DeadlineExpired.selector, p.deadline, block.timestamp));
    }

    function test_deadlineEqualToNow_isAccepted() public {
        IExecutor.SwapParams memory p = _params(a, b, AMOUNT, alice);
        p.deadline = block.timestamp;
        _swapAs(alice, p, _v2Route());
    }

    function test_revert_zeroRecipient() public {
        _expectSwapRevert(_params(a, b, AMOUNT, address(0)), _v2Route(), abi.encodeWithSelector(IExecutor.InvalidRecipient.selector, address(0)));
    }

    function test_revert_executorAsRecipient() public {
        _expectSwapRevert(
            _params(a, b, AMOUNT, address(executor)), _v2Route(), abi.encodeWithSelector(IExecutor.InvalidRecipient.selector, address(executor))
        );
    }

    function test_revert_identicalTokens() public {
        _expectSwapRevert(_params(a, a, AMOUNT, alice), _v2Route(), abi.encodeWithSelector(IExecutor.IdenticalTokens.selector, a));
    }

    function test_revert_zeroAmountIn() public {
        _expectSwapRevert(_params(a, b, 0, alice), _v2Route(), abi.encodeWithSelector(IExecutor.ZeroAmountIn.selector));
    }

    function test_revert_nativeInput_valueBelowAmount() public {
        IExecutor.SwapParams memory p = _params(NATIVE, a, 1e18, alice);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InvalidNativeValue.selector, 1e18, 1e18 - 1));
        vm.prank(alice);
        executor.swap{value: 1e18 - 1}(p, Routes.single(1e18, Routes.v4(a, 3000, 60)));
    }

    function test_revert_nativeInput_valueAboveAmount() public {
        IExecutor.SwapParams memory p = _params(NATIVE, a, 1e18, alice);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InvalidNativeValue.selector, 1e18, 1e18 + 1));
        vm.prank(alice);
        executor.swap{value: 1e18 + 1}(p, Routes.single(1e18, Routes.v4(a, 3000, 60)));
    }

    function test_revert_erc20Input_withValue() public {
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InvalidNativeValue.selector, 0, 1));
        vm.prank(alice);
        executor.swap{value: 1}(_params(a, b, AMOUNT, alice), _v2Route());
    }

    /// @dev An address field of the terms (tokenIn, tokenOut, recipient: the words at 4, 36 and 132 of the
    ///      calldata) with dirty upper bits reverts without data, as the ABI decoder does, for both entry points;
    ///      the same calldata with clean words swaps.
    function test_revert_dirtyAddressWords() public {
        IExecutor.SwapParams memory p = _params(a, b, AMOUNT, alice);
        bytes memory clean = abi.encodeCall(executor.swap, (p, _v2Route()));
        bytes memory aggregatorCall = abi.encodeCall(executor.swapThroughAggregator, (p, 1, ""));
        uint256[3] memory words = [uint256(4), 36, 132];
        for (uint256 i; i < words.length; ++i) {
            for (uint256 entry; entry < 2; ++entry) {
                bytes memory data = bytes.concat(entry == 0 ? clean : aggregatorCall);
                data[words[i]] = 0x01; // the word's first byte: above the address's 20
                vm.prank(alice);
                (bool ok, bytes memory reason) = address(executor).call(data);
                assertFalse(ok, "dirty word accepted");
                assertEq(reason.length, 0, "not the decoder's empty revert");
            }
        }
        vm.prank(alice);
        (bool swapped,) = address(executor).call(clean);
        assertTrue(swapped, "clean terms refused");
    }

    function test_revert_feeOnTransferInput_unsupported() public {
        address t = address(tax);
        _expectSwapRevert(
            _params(t, a, AMOUNT, alice),
            Routes.single(AMOUNT, Routes.v2(a)),
            abi.encodeWithSelector(IExecutor.UnsupportedInputToken.selector, t, AMOUNT, AMOUNT - AMOUNT / 100)
        );
    }

    function test_revert_insufficientOutput() public {
        uint256 gross = _quoteV2(a, b, AMOUNT);
        uint256 net = gross - (gross * AB_ROUTE_FEE) / 10_000 - (gross * BUILDER_FEE) / 10_000;
        IExecutor.SwapParams memory p = _params(a, b, AMOUNT, alice);
        p.minOut = net + 1;
        _expectSwapRevert(p, _v2Route(), abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, net, net + 1));
    }

    function test_revert_nativeRecipientRejectsEth() public {
        address rejecter = address(new EthRejecter());
        IExecutor.SwapParams memory p = _params(a, NATIVE, AMOUNT, rejecter);
        uint256 gross = _quoteV4(a, NATIVE, 3000, 60, AMOUNT);
        uint256 net = gross - (gross * DEFAULT_ROUTE_FEE) / 10_000 - (gross * BUILDER_FEE) / 10_000;
        _expectSwapRevert(
            p, Routes.single(AMOUNT, Routes.v4(NATIVE, 3000, 60)), abi.encodeWithSelector(IExecutor.NativeTransferFailed.selector, rejecter, net)
        );
    }

    function test_revert_insufficientAllowance() public {
        address carol = makeAddr("carol");
        tokA.transfer(carol, AMOUNT);
        vm.expectRevert(); // the token's own allowance error (solady SafeTransferLib: TransferFromFailed)
        vm.prank(carol);
        executor.swap(_params(a, b, AMOUNT, carol), _v2Route());
    }

    function test_revert_unexpectedNativeSender() public {
        vm.expectRevert(abi.encodeWithSelector(IExecutor.UnexpectedNativeSender.selector, alice));
        vm.prank(alice);
        (bool ok,) = address(executor).call{value: 1}("");
        ok;
    }

    // ------------------------------------------------------------------ pools

    function test_revert_v2PairNotDeployed() public {
        address pair = _derivedV2(a, c);
        _expectSwapRevert(_params(a, c, AMOUNT, alice), Routes.single(AMOUNT, Routes.v2(c)), abi.encodeWithSelector(IExecutor.PoolNotDeployed.selector, pair));
    }

    function test_revert_v3PoolNotDeployed_wrongFeeTier() public {
        address pool = _derivedV3(a, b, 10000);
        _expectSwapRevert(
            _params(a, b, AMOUNT, alice), Routes.single(AMOUNT, Routes.v3(b, 10000)), abi.encodeWithSelector(IExecutor.PoolNotDeployed.selector, pool)
        );
    }

    function test_revert_v4PoolNotInitialized() public {
        // A/C has no V4 pool: the PoolManager itself refuses (PoolNotInitialized()).
        vm.expectRevert(bytes4(keccak256("PoolNotInitialized()")));
        _swapAs(alice, _params(a, c, AMOUNT, alice), Routes.single(AMOUNT, Routes.v4(c, 3000, 60)));
    }

    function test_revert_v3PartialFill() public {
        // A thin A/C pool with liquidity in one narrow band only: a large input exhausts it.
        address pool = v3Factory.createPool(a, c, 10000);
        IV3PoolFull(pool).initialize(PRICE_ONE);
        tokA.transfer(address(lp), 1e24);
        tokC.transfer(address(lp), 1e24);
        lp.mintV3(IV3PoolFull(pool), -2000, 2000, 1e21);
        uint256 big = 500_000e18;
        vm.expectPartialRevert(IExecutor.PartialFill.selector);
        _swapAs(alice, _params(a, c, big, alice), Routes.single(big, Routes.v3(c, 10000)));
    }

    function test_revert_v4PartialFill() public {
        PoolKey memory key = _v4Key(a, c, 10000, 200);
        poolManager.initialize(key, PRICE_ONE);
        tokA.transfer(address(lp), 1e24);
        tokC.transfer(address(lp), 1e24);
        lp.addV4(key, -2000, 2000, 1e21);
        uint256 big = 500_000e18;
        vm.expectPartialRevert(IExecutor.PartialFill.selector);
        _swapAs(alice, _params(a, c, big, alice), Routes.single(big, Routes.v4(c, 10000, 200)));
    }

    // ------------------------------------------------------------------ route encoding

    function test_revert_route_tooShort() public {
        _expectSwapRevert(_params(a, b, AMOUNT, alice), hex"01", abi.encodeWithSelector(IExecutor.MalformedRoute.selector, 1));
    }

    function test_revert_route_unsupportedVersion() public {
        bytes memory route = _v2Route();
        route[0] = 0x02;
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.UnsupportedRouteVersion.selector, 2));
    }

    function test_revert_route_zeroBranches() public {
        _expectSwapRevert(_params(a, b, AMOUNT, alice), hex"0100", abi.encodeWithSelector(IExecutor.InvalidBranchCount.selector, 0));
    }

    function test_revert_route_fourBranches() public {
        bytes memory br = Routes.branch(AMOUNT / 4, Routes.v2(b));
        bytes memory route = abi.encodePacked(uint8(1), uint8(4), br, br, br, br);
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidBranchCount.selector, 4));
    }

    function test_revert_route_zeroHops() public {
        bytes memory route = abi.encodePacked(uint8(1), uint8(1), uint128(AMOUNT), uint8(0));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidHopCount.selector, 0));
    }

    function test_revert_route_fourHops() public {
        bytes memory route = abi.encodePacked(
            uint8(1), uint8(1), uint128(AMOUNT), uint8(4), Routes.v2(b), Routes.v2(a), Routes.v2(b), Routes.v2(a)
        );
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidHopCount.selector, 4));
    }

    function test_revert_route_unknownHopKind() public {
        bytes memory route = abi.encodePacked(uint8(1), uint8(1), uint128(AMOUNT), uint8(1), uint8(4), b);
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.UnknownHopKind.selector, 4));
    }

    function test_revert_route_kindZero() public {
        bytes memory route = abi.encodePacked(uint8(1), uint8(1), uint128(AMOUNT), uint8(1), uint8(0), b);
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.UnknownHopKind.selector, 0));
    }

    function test_revert_route_truncatedHop() public {
        bytes memory full = Routes.single(AMOUNT, Routes.v3(b, 3000));
        bytes memory route = new bytes(full.length - 1);
        for (uint256 i; i < route.length; ++i) {
            route[i] = full[i];
        }
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.MalformedRoute.selector, route.length));
    }

    function test_revert_route_truncatedBranchHeader() public {
        bytes memory route = abi.encodePacked(uint8(1), uint8(1), uint64(0));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.MalformedRoute.selector, route.length));
    }

    function test_revert_route_trailingBytes() public {
        bytes memory route = abi.encodePacked(_v2Route(), uint8(0));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.MalformedRoute.selector, route.length));
    }

    function test_revert_route_zeroBranchAmount() public {
        bytes memory route = Routes.route(Routes.branch(AMOUNT, Routes.v2(b)), Routes.branch(0, Routes.v3(b, 3000)));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.ZeroBranchAmount.selector, 1));
    }

    function test_revert_route_branchesSumBelowAmountIn() public {
        bytes memory route = Routes.route(Routes.branch(AMOUNT / 2, Routes.v2(b)), Routes.branch(AMOUNT / 4, Routes.v3(b, 3000)));
        _expectSwapRevert(
            _params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.BranchAmountsMismatch.selector, (AMOUNT * 3) / 4, AMOUNT)
        );
    }

    function test_revert_route_branchesSumAboveAmountIn() public {
        bytes memory route = Routes.route(Routes.branch(AMOUNT, Routes.v2(b)), Routes.branch(1, Routes.v3(b, 3000)));
        _expectSwapRevert(
            _params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.BranchAmountsMismatch.selector, AMOUNT + 1, AMOUNT)
        );
    }

    function test_revert_route_branchEndsInWrongCurrency() public {
        bytes memory route = Routes.single(AMOUNT, Routes.v2(c));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.BranchEndsInWrongCurrency.selector, c, b));
    }

    function test_revert_route_v4DynamicFeeFlag() public {
        bytes memory route = Routes.single(AMOUNT, Routes.v4(b, 0x800000, 60));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidV4PoolKey.selector, uint24(0x800000), int24(60)));
    }

    function test_revert_route_v4FeeAboveMax() public {
        bytes memory route = Routes.single(AMOUNT, Routes.v4(b, 1_000_001, 60));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidV4PoolKey.selector, uint24(1_000_001), int24(60)));
    }

    function test_revert_route_v4ZeroTickSpacing() public {
        bytes memory route = Routes.single(AMOUNT, Routes.v4(b, 3000, 0));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidV4PoolKey.selector, uint24(3000), int24(0)));
    }

    function test_revert_route_v4NegativeTickSpacing() public {
        bytes memory route = Routes.single(AMOUNT, Routes.v4(b, 3000, -60));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidV4PoolKey.selector, uint24(3000), int24(-60)));
    }

    function test_revert_route_v4TickSpacingAboveMax() public {
        bytes memory route = Routes.single(AMOUNT, Routes.v4(b, 3000, 32768));
        _expectSwapRevert(_params(a, b, AMOUNT, alice), route, abi.encodeWithSelector(IExecutor.InvalidV4PoolKey.selector, uint24(3000), int24(32768)));
    }

    // ------------------------------------------------------------------ helpers

    function _derivedV2(address x, address y) internal view returns (address) {
        (address t0, address t1) = x < y ? (x, y) : (y, x);
        return address(
            uint160(uint256(keccak256(abi.encodePacked(hex"ff", address(v2Factory), keccak256(abi.encodePacked(t0, t1)), v2InitCodeHash))))
        );
    }

    function _derivedV3(address x, address y, uint24 fee) internal view returns (address) {
        (address t0, address t1) = x < y ? (x, y) : (y, x);
        return address(
            uint160(uint256(keccak256(abi.encodePacked(hex"ff", address(v3Factory), keccak256(abi.encode(t0, t1, fee)), v3InitCodeHash))))
        );
    }
}
