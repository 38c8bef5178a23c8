// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {RouteCodec} from "../libraries/RouteCodec.sol";
import {V2Hop} from "./V2Hop.sol";
import {V3Hop} from "./V3Hop.sol";
import {V4Hop} from "./V4Hop.sol";

/// @title RouteRunner
/// @notice Executes a validated route branch by branch, hop by hop. Native ETH is one logical currency
///         (address(0)) held either as ETH or as WETH9: V2/V3 hops need WETH9, V4 hops need the currency
///         their key names, and a branch converts only when the next hop needs the other form.
abstract contract RouteRunner is V2Hop, V3Hop, V4Hop {
    /// @dev A branch in flight: its current currency and amount, whether native ETH is held as WETH9,
    ///      and whether the amount already sits in the next V2 pair.
    struct Leg {
        address currency;
        uint256 amount;
        bool wrapped;
        bool atPair;
        /// @dev Who holds the amount when it is not here: the swap's caller before the first hop of an
        ///      ERC-20 branch (the hop pulls it straight into the pool), else address(0).
        address payer;
        /// @dev Where the branch's last pool pays (see `_runRoute`).
        address out;
    }

    /// @notice Runs every branch of `route` (already validated by `RouteCodec.validate`); `payer` holds the
    ///         ERC-20 input (address(0) for native ETH input, already here as `msg.value`).
    /// @param out Where each branch's last pool pays its ERC-20 output: the executor, or the recipient when
    ///        no fee is taken. Native ETH output always ends here (it is unwrapped or taken first).
    function _runRoute(address tokenIn, address payer, bytes calldata route, address out) internal {
        uint256 branchCount = RouteCodec.u8(route, 1);
        uint256 offset = RouteCodec.HEADER_SIZE;
        Leg memory start = Leg(tokenIn, 0, false, false, payer, out);
        for (uint256 b; b < branchCount; ++b) {
            offset = _runBranch(start, route, offset);
        }
    }

    /// @param start The route's input currency, payer and output address (its amount is unused).
    /// @return The offset just past the branch.
    function _runBranch(Leg memory start, bytes calldata route, uint256 offset) private returns (uint256) {
        Leg memory leg = Leg(start.currency, RouteCodec.u128(route, offset), false, false, start.payer, start.out);
        uint256 hopCount = RouteCodec.u8(route, offset + 16);
        offset += RouteCodec.BRANCH_HEADER_SIZE;
        uint256 h;
        while (h < hopCount) {
            if (RouteCodec.u8(route, offset) == RouteCodec.KIND_V4) {
                uint256 end = offset + RouteCodec.V4_HOP_SIZE;
                ++h;
                while (h < hopCount && RouteCodec.u8(route, end) == RouteCodec.KIND_V4) {
                    end += RouteCodec.V4_HOP_SIZE;
                    ++h;
                }
                if (leg.currency == address(0) && leg.wrapped) _unwrap(leg.amount);
                if (h < hopCount) {
                    // Taken here for the next hop: what arrived, never the fees this executor holds.
                    address currencyOut = RouteCodec.addr(route, end - RouteCodec.V4_HOP_SIZE + 1);
                    uint256 before = _held(currencyOut);
                    (leg.currency,) = _swapV4(leg.currency, leg.amount, leg.payer, route[offset:end], address(this));
                    leg.amount = _held(currencyOut) - before;
                } else {
                    (leg.currency, leg.amount) = _swapV4(leg.currency, leg.amount, leg.payer, route[offset:end], leg.out);
                }
                leg.wrapped = false;
                leg.payer = address(0);
                offset = end;
            } else {
                ++h;
                uint256 nextKind = h < hopCount ? RouteCodec.u8(route, offset + _size(route, offset)) : 0;
                // An ERC-20 the pool pays here for the next hop: what arrived, never the fees this executor
                // holds (a pair paying the next pair is measured by that pair).
                address landing = _landsHere(route, offset, nextKind);
                uint256 before = landing == address(0) ? 0 : SafeTransferLib.balanceOf(landing, address(this));
                offset = _poolHop(leg, route, offset, nextKind);
                if (landing != address(0)) leg.amount = SafeTransferLib.balanceOf(landing, address(this)) - before;
            }
        }
        if (leg.currency == address(0) && leg.wrapped) _unwrap(leg.amount);
        return offset;
    }

    /// @dev One V2 or V3 hop at `offset`; `nextKind` is the following hop's kind (0 at the branch end, where
    ///      the pool pays `leg.out`).
    function _poolHop(Leg memory leg, bytes calldata route, uint256 offset, uint256 nextKind)
        private
        returns (uint256)
    {
        address currencyOut = RouteCodec.addr(route, offset + 1);
        address tokenIn = _poolToken(leg.currency);
        address tokenOut = _poolToken(currencyOut);
        if (leg.currency == address(0) && !leg.wrapped && !leg.atPair) _wrap(leg.amount);
        if (RouteCodec.u8(route, offset) == RouteCodec.KIND_V2) {
            // Chained V2 hops: this pair pays straight into the next one.
            address to = nextKind == RouteCodec.KIND_V2
                ? _v2Pair(tokenOut, _poolToken(RouteCodec.addr(route, offset + RouteCodec.V2_HOP_SIZE + 1)))
                : nextKind == 0 ? leg.out : address(this);
            leg.amount = _swapV2(tokenIn, tokenOut, leg.amount, leg.atPair, leg.payer, to);
            leg.atPair = nextKind == RouteCodec.KIND_V2;
            offset += RouteCodec.V2_HOP_SIZE;
        } else {
            leg.amount = _swapV3(
                tokenIn,
                tokenOut,
                RouteCodec.u24(route, offset + 21),
                leg.amount,
                leg.payer,
                nextKind == 0 ? leg.out : address(this)
            );
            leg.atPair = false;
            offset += RouteCodec.V3_HOP_SIZE;
        }
        leg.payer = address(0);
        leg.currency = currencyOut;
        leg.wrapped = currencyOut == address(0);
        return offset;
    }

    /// @dev The ERC-20 the V2 or V3 hop at `offset` pays to the executor for the next hop (`nextKind`), or
    ///      zero: none at a branch's end (the whole output is measured there), none from a pair into the next
    ///      pair, none for native ETH (WETH9 and ETH move exactly).
    function _landsHere(bytes calldata route, uint256 offset, uint256 nextKind) private pure returns (address) {
        if (nextKind == 0) return address(0);
        if (RouteCodec.u8(route, offset) == RouteCodec.KIND_V2 && nextKind == RouteCodec.KIND_V2) return address(0);
        return RouteCodec.addr(route, offset + 1);
    }

    function _size(bytes calldata route, uint256 offset) private pure returns (uint256) {
        return RouteCodec.hopSize(RouteCodec.u8(route, offset));
    }
}
