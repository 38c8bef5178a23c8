// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {GasFixture} from "./utils/GasFixture.sol";
import {Routes} from "./utils/Routes.sol";

/// @notice `ExecutorGasTest`'s both-fee single hops on a pair the standard schedule's default applies to: the
///         same pools, with the fee of its own the fixture gives A/B cleared in `setUp` (so it is not warm in
///         the measured call). Such a swap reads two policy words from the executor's copy, the policy and
///         its builder's; a pair with a fee of its own reads that pair's word too.
contract DefaultScheduleExecutorGasTest is GasFixture {
    uint256 internal constant AMOUNT = 1_000e18;

    function setUp() public override {
        super.setUp();
        vm.prank(gov);
        registry.clearPairRouteFee(address(tokA), address(tokB));
    }

    function _measure(IExecutor.SwapParams memory p, bytes memory route) internal {
        vm.prank(alice);
        vm.resumeGasMetering();
        executor.swap(p, route);
        vm.pauseGasMetering();
    }

    function test_gas_v2_singleHop_defaultSchedule() public {
        vm.pauseGasMetering();
        _measure(_params(address(tokA), address(tokB), AMOUNT, alice), Routes.single(AMOUNT, Routes.v2(address(tokB))));
    }

    function test_gas_v3_singleHop_defaultSchedule() public {
        vm.pauseGasMetering();
        _measure(
            _params(address(tokA), address(tokB), AMOUNT, alice), Routes.single(AMOUNT, Routes.v3(address(tokB), 3000))
        );
    }

    /// @dev The service fee alone, no builder: how public and partner quotes' swaps settle (one policy word).
    function test_gas_v3_singleHop_serviceFeeOnly_defaultSchedule() public {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _params(address(tokA), address(tokB), AMOUNT, alice);
        (p.builderId, p.maxBuilderFeeBps) = (bytes32(0), 0);
        _measure(p, Routes.single(AMOUNT, Routes.v3(address(tokB), 3000)));
    }
}
