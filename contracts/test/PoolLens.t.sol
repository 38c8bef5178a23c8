// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolLens} from "../src/simulation/PoolLens.sol";
import {JunctionFixture} from "./utils/JunctionFixture.sol";

interface IV3PoolView {
    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool);
    function liquidity() external view returns (uint128);
    function tickBitmap(int16 wordPos) external view returns (uint256);
    function ticks(int24 tick)
        external
        view
        returns (uint128, int128, uint256, uint256, int56, uint160, uint32, bool);
}

/// @notice The lens, run as creation code the way the service sends it: its "deployed code" is the answer.
contract PoolLensTest is JunctionFixture {
    function test_answersOnlyTheAskedWordsOfEveryView_andMarksFailedOnes() public {
        address pool = _v3Pool(address(tokA), address(tokB), 3000);
        int24 tick = -20 * 60; // a position boundary the fixture minted
        bytes memory request = bytes.concat(
            _entry(pool, abi.encodeCall(IV3PoolView.slot0, ()), hex"0001"),
            _entry(pool, abi.encodeCall(IV3PoolView.liquidity, ()), hex"00"),
            _entry(pool, abi.encodeCall(IV3PoolView.ticks, (tick)), hex"01"),
            _entry(address(0xdead), abi.encodeCall(IV3PoolView.liquidity, ()), hex"00"), // no code: no words
            _entry(pool, abi.encodeCall(IV3PoolView.liquidity, ()), hex"01"), // past the return data
            _entry(pool, abi.encodeCall(IV3PoolView.tickBitmap, (int16(-1))), hex"00")
        );
        bytes memory answer = address(new PoolLens(request)).code;

        (uint160 sqrtPriceX96, int24 current,,,,,) = IV3PoolView(pool).slot0();
        (, int128 liquidityNet,,,,,,) = IV3PoolView(pool).ticks(tick);
        bytes memory expected = bytes.concat(
            hex"01",
            bytes32(uint256(sqrtPriceX96)),
            bytes32(uint256(int256(current))),
            hex"01",
            bytes32(uint256(IV3PoolView(pool).liquidity())),
            hex"01",
            bytes32(uint256(int256(liquidityNet))),
            hex"00",
            hex"00",
            hex"01",
            bytes32(IV3PoolView(pool).tickBitmap(-1))
        );
        assertEq(answer, expected);
        assertTrue(liquidityNet != 0, "the tick is initialized");
    }

    function test_emptyRequest_emptyAnswer() public {
        assertEq(address(new PoolLens("")).code.length, 0);
    }

    function _entry(address target, bytes memory data, bytes memory words) private pure returns (bytes memory) {
        return bytes.concat(bytes20(target), bytes2(uint16(data.length)), data, bytes1(uint8(words.length)), words);
    }
}
