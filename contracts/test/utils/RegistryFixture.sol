// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {BuilderRegistry} from "../../src/BuilderRegistry.sol";
import {Executor} from "../../src/Executor.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {IPoolManager} from "../../src/interfaces/external/IPoolManager.sol";

/// @dev A commissioned registry (service fee 25 bps, builder cap 50) with one registered builder, and the
///      executor whose copy of the policy it writes (on placeholder Uniswap addresses: only its copy is used).
abstract contract RegistryFixture is Test {
    BuilderRegistry internal registry;
    Executor internal executor;
    address internal gov = makeAddr("governance");
    address internal treasury = makeAddr("treasury");
    address internal owner = makeAddr("owner");
    address internal wallet = makeAddr("wallet");
    address internal stranger = makeAddr("stranger");
    address internal tokenA = makeAddr("tokenA");
    address internal tokenB = makeAddr("tokenB");
    bytes32 internal id;

    function setUp() public virtual {
        registry = new BuilderRegistry(gov, treasury, 25, 50);
        executor = _newExecutor(registry);
        vm.startPrank(gov);
        registry.setExecutor(executor);
        registry.setCommissioned(true);
        vm.stopPrank();
        vm.prank(owner);
        id = registry.register("junction-demo", wallet, 10);
    }

    /// @dev An executor of `registry_` on placeholder Uniswap addresses and no aggregators.
    function _newExecutor(BuilderRegistry registry_) internal returns (Executor) {
        return new Executor(
            address(1),
            address(2),
            bytes32(0),
            address(3),
            bytes32(0),
            IPoolManager(address(4)),
            registry_,
            IExecutor.AggregatorTargets(address(0), address(0), address(0), 0)
        );
    }

    /// @dev Calls the registry with `data` from `caller` and expects exactly the revert data `expected`.
    function _expectRevertFrom(address caller, bytes memory data, bytes memory expected) internal {
        vm.prank(caller);
        (bool ok, bytes memory err) = address(registry).call(data);
        assertFalse(ok);
        assertEq(err, expected);
    }
}
