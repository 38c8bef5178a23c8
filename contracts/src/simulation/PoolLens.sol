// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title PoolLens
/// @notice Never deployed: sent as the creation code of an `eth_call` without `to`, its constructor makes a
///         batch of view calls (V2 reserves, V3 slot0, liquidity, bitmap words, ticks) and returns, as the
///         "deployed code", only the words the caller asked for. One call reads many pools in a form that
///         is a few bytes per value both ways, where a multicall spends five words per result.
/// @dev Request, the constructor's `bytes`: entries packed back to back, each
///      `target (20 bytes) | calldata length (uint16) | calldata | word count (uint8) | word indexes (uint8 each)`.
///      Response: per entry in order, a status byte (1: the call succeeded and returned every asked word,
///      0: it did not) followed, when 1, by the asked words of its return data (32 bytes each).
///      Every call sees the state of the block the `eth_call` runs at; nothing is written.
contract PoolLens {
    constructor(bytes memory request) {
        assembly ("memory-safe") {
            let p := add(request, 0x20)
            let end := add(p, mload(request))
            let out := mload(0x40)
            let o := out
            for {} lt(p, end) {} {
                let target := shr(96, mload(p))
                let len := shr(240, mload(add(p, 20)))
                let data := add(p, 22)
                let count := byte(0, mload(add(data, len)))
                let indexes := add(add(data, len), 1)
                let ok := staticcall(gas(), target, data, len, 0, 0)
                for { let i := 0 } and(ok, lt(i, count)) { i := add(i, 1) } {
                    // Every asked word must lie inside the return data (an account without code returns none).
                    if gt(mul(add(byte(0, mload(add(indexes, i))), 1), 32), returndatasize()) { ok := 0 }
                }
                mstore8(o, ok)
                o := add(o, 1)
                if ok {
                    for { let i := 0 } lt(i, count) { i := add(i, 1) } {
                        returndatacopy(o, mul(byte(0, mload(add(indexes, i))), 32), 32)
                        o := add(o, 32)
                    }
                }
                p := add(indexes, count)
            }
            return(out, sub(o, out))
        }
    }
}
