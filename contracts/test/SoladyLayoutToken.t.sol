// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {SoladyLayoutToken} from "../devnet/SoladyLayoutToken.sol";

contract SoladyLayoutTokenTest is Test {
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    uint256 internal constant AMOUNT = 5_000e8;
    SoladyLayoutToken internal token;

    function setUp() public {
        address[] memory holders = new address[](2);
        holders[0] = alice;
        holders[1] = bob;
        token = new SoladyLayoutToken("Wrapped BTC", "WBTC", 8, holders, AMOUNT);
    }

    /// Solady: mstore(0x0c, _BALANCE_SLOT_SEED); mstore(0x00, owner); keccak256(0x0c, 0x20)
    /// hashes the 20 owner bytes followed by the seed as a 12-byte big-endian word.
    function _balanceSlot(address owner) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(owner, uint96(0x87a211a2)));
    }

    function test_metadataOverrides() public view {
        assertEq(token.name(), "Wrapped BTC");
        assertEq(token.symbol(), "WBTC");
        assertEq(token.decimals(), 8);
        assertEq(token.minter(), address(this));
        assertEq(token.totalSupply(), 2 * AMOUNT);
    }

    function test_balance_livesAtSoladyHashedSlot() public view {
        assertEq(uint256(vm.load(address(token), _balanceSlot(alice))), AMOUNT);
        assertEq(uint256(vm.load(address(token), _balanceSlot(alice))), token.balanceOf(alice));
        // Not a Solidity mapping at any low slot.
        for (uint256 slot = 0; slot < 4; ++slot) {
            assertEq(vm.load(address(token), keccak256(abi.encode(alice, slot))), bytes32(0));
        }
    }

    function test_fuzz_balanceSlotTracksTransfers(uint256 amount) public {
        amount = bound(amount, 0, AMOUNT);
        vm.prank(alice);
        assertTrue(token.transfer(bob, amount));
        assertEq(uint256(vm.load(address(token), _balanceSlot(alice))), AMOUNT - amount);
        assertEq(uint256(vm.load(address(token), _balanceSlot(bob))), AMOUNT + amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount);
    }

    function test_storeAtHashedSlotMovesBalance() public {
        vm.store(address(token), _balanceSlot(alice), bytes32(uint256(42)));
        assertEq(token.balanceOf(alice), 42);
    }

    function test_mint() public {
        token.mint(alice, 1);
        assertEq(token.balanceOf(alice), AMOUNT + 1);
    }

    function test_mint_revertsForNonMinter() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(SoladyLayoutToken.NotMinter.selector, alice));
        token.mint(alice, 1);
    }

    function test_permit2HasNoImplicitAllowance() public view {
        assertEq(token.allowance(alice, PERMIT2), 0);
    }
}
