// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {NamespacedToken} from "../devnet/NamespacedToken.sol";

contract NamespacedTokenTest is Test {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal spender = makeAddr("spender");
    uint256 internal constant AMOUNT = 1_000e18;
    NamespacedToken internal token;

    function setUp() public {
        address[] memory holders = new address[](2);
        holders[0] = alice;
        holders[1] = bob;
        token = new NamespacedToken("Namespaced", "NS", 18, holders, AMOUNT);
    }

    function test_storageSlot_matchesErc7201Formula() public view {
        bytes32 expected =
            keccak256(abi.encode(uint256(keccak256("junction.devnet.NamespacedToken")) - 1)) & ~bytes32(uint256(0xff));
        assertEq(token.STORAGE_SLOT(), expected);
    }

    function test_state_livesInNamespace() public view {
        bytes32 base = token.STORAGE_SLOT();
        // balances is the struct's first member, totalSupply its third.
        assertEq(uint256(vm.load(address(token), keccak256(abi.encode(alice, base)))), AMOUNT);
        assertEq(uint256(vm.load(address(token), bytes32(uint256(base) + 2))), 2 * AMOUNT);
        for (uint256 slot = 0; slot < 8; ++slot) {
            assertEq(vm.load(address(token), bytes32(slot)), bytes32(0));
            assertEq(vm.load(address(token), keccak256(abi.encode(alice, slot))), bytes32(0));
        }
    }

    function test_storeInNamespaceMovesBalance() public {
        vm.store(address(token), keccak256(abi.encode(alice, token.STORAGE_SLOT())), bytes32(uint256(3)));
        assertEq(token.balanceOf(alice), 3);
    }

    function test_constructor_metadataAndMint() public view {
        assertEq(token.name(), "Namespaced");
        assertEq(token.symbol(), "NS");
        assertEq(token.decimals(), 18);
        assertEq(token.minter(), address(this));
        assertEq(token.balanceOf(alice), AMOUNT);
        assertEq(token.balanceOf(bob), AMOUNT);
        assertEq(token.totalSupply(), 2 * AMOUNT);
    }

    function test_mint_revertsForNonMinter() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(NamespacedToken.NotMinter.selector, alice));
        token.mint(alice, 1);
    }

    function test_mint_byMinter() public {
        vm.expectEmit(address(token));
        emit IERC20.Transfer(address(0), bob, 9);
        token.mint(bob, 9);
        assertEq(token.balanceOf(bob), AMOUNT + 9);
        assertEq(token.totalSupply(), 2 * AMOUNT + 9);
    }

    function test_fuzz_transfer(uint256 amount) public {
        amount = bound(amount, 0, AMOUNT);
        vm.expectEmit(address(token));
        emit IERC20.Transfer(alice, bob, amount);
        vm.prank(alice);
        assertTrue(token.transfer(bob, amount));
        assertEq(token.balanceOf(alice), AMOUNT - amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount);
    }

    function test_transfer_toSelfKeepsBalance() public {
        vm.prank(alice);
        assertTrue(token.transfer(alice, AMOUNT));
        assertEq(token.balanceOf(alice), AMOUNT);
    }

    function test_transfer_revertsOnInsufficientBalance() public {
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, AMOUNT, AMOUNT + 1)
        );
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, AMOUNT + 1);
    }

    function test_transfer_revertsToZeroAddress() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InvalidReceiver.selector, address(0)));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(address(0), 1);
    }

    function test_fuzz_transferFromDecrementsAllowance(uint256 allowance_, uint256 amount) public {
        allowance_ = bound(allowance_, 0, type(uint256).max - 1);
        amount = bound(amount, 0, allowance_ < AMOUNT ? allowance_ : AMOUNT);
        vm.expectEmit(address(token));
        emit IERC20.Approval(alice, spender, allowance_);
        vm.prank(alice);
        token.approve(spender, allowance_);

        vm.prank(spender);
        assertTrue(token.transferFrom(alice, bob, amount));
        assertEq(token.allowance(alice, spender), allowance_ - amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount);
    }

    function test_transferFrom_infiniteAllowanceNotDecremented() public {
        vm.prank(alice);
        token.approve(spender, type(uint256).max);
        vm.prank(spender);
        assertTrue(token.transferFrom(alice, bob, AMOUNT));
        assertEq(token.allowance(alice, spender), type(uint256).max);
    }

    function test_transferFrom_revertsOverAllowance() public {
        vm.prank(alice);
        token.approve(spender, 10);
        vm.prank(spender);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, spender, 10, 11));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transferFrom(alice, bob, 11);
    }
}
