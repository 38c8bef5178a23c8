// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {BuilderRegistry} from "../../src/BuilderRegistry.sol";

/// @dev A commissioned registry (service fee 25 bps, builder cap 50) with one registered builder.
abstract contract RegistryFixture is Test {
    BuilderRegistry internal registry;
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
        vm.prank(gov);
        registry.setCommissioned(true);
        vm.prank(owner);
        id = registry.register("junction-demo", wallet, 10);
    }

    /// @dev Calls the registry with `data` from `caller` and expects exactly the revert data `expected`.
    function _expectRevertFrom(address caller, bytes memory data, bytes memory expected) internal {
        vm.prank(caller);
        (bool ok, bytes memory err) = address(registry).call(data);
        assertFalse(ok);
        assertEq(err, expected);
    }
}
