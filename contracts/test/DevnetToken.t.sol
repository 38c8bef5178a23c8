// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {DevnetToken} from "../devnet/DevnetToken.sol";

contract DevnetTokenTest is Test {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    uint256 internal constant AMOUNT = 1_000_000e6;
    DevnetToken internal token;

    function setUp() public {
        address[] memory holders = new address[](2);
        holders[0] = alice;
        holders[1] = bob;
        token = new DevnetToken("USD Coin", "USDC", 6, holders, AMOUNT);
    }

    function test_constructor_mintsToEachHolder() public view {
        assertEq(token.name(), "USD Coin");
        assertEq(token.symbol(), "USDC");
        assertEq(token.decimals(), 6);
        assertEq(token.minter(), address(this));
        assertEq(token.balanceOf(alice), AMOUNT);
        assertEq(token.balanceOf(bob), AMOUNT);
        assertEq(token.totalSupply(), 2 * AMOUNT);
    }

    function test_constructor_noHolders() public {
        DevnetToken empty = new DevnetToken("Empty", "E", 18, new address[](0), 1);
        assertEq(empty.totalSupply(), 0);
        assertEq(empty.decimals(), 18);
    }

    function test_mint_byMinter() public {
        vm.expectEmit(address(token));
        emit IERC20.Transfer(address(0), alice, 5);
        token.mint(alice, 5);
        assertEq(token.balanceOf(alice), AMOUNT + 5);
        assertEq(token.totalSupply(), 2 * AMOUNT + 5);
    }

    function test_mint_revertsForNonMinter() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(DevnetToken.NotMinter.selector, alice));
        token.mint(alice, 1);
    }

    function test_balance_livesInMappingAtSlot0() public {
        assertEq(uint256(vm.load(address(token), keccak256(abi.encode(alice, uint256(0))))), AMOUNT);
        // Writing the slot is how simulations fund accounts; it must move balanceOf.
        vm.store(address(token), keccak256(abi.encode(alice, uint256(0))), bytes32(uint256(7)));
        assertEq(token.balanceOf(alice), 7);
    }

    function test_fuzz_transfer(uint256 amount) public {
        amount = bound(amount, 0, AMOUNT);
        vm.prank(alice);
        assertTrue(token.transfer(bob, amount));
        assertEq(token.balanceOf(alice), AMOUNT - amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount);
        assertEq(token.totalSupply(), 2 * AMOUNT);
    }
}
