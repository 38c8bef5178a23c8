// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title IExecutor
/// @notice Junction's swap executor: runs an exact-input route (up to 3 branches of up to 3 hops) through
///         canonical Uniswap V2 pairs, V3 pools and hook-free static-fee V4 pools, and charges the service
///         fee and the builder fee on the gross output: with a fee the output comes here, and the executor
///         (the reviewed collector, `ISettlementCollector`) keeps both fees as credits and pays the recipient
///         the rest; without one, straight to the recipient.
///         It also runs a third-party aggregator's transaction through the router or allowance holder its
///         deployment names (`swapThroughAggregator`), settled the same way without a service fee.
/// @dev The route is a compact byte string, documented in `contracts/ROUTE_ENCODING.md` and parsed by
///      `RouteCodec`. Pools are never named in it: the executor derives every pool address (CREATE2) or key
///      itself. It pulls tokens only from `msg.sender`, which must `approve` this contract (the spender).
interface IExecutor {
    /// @notice Terms of one swap, as quoted and signed by the user.
    /// @param tokenIn Input token; address(0) is native ETH, sent as `msg.value`.
    /// @param tokenOut Output token; address(0) is native ETH.
    /// @param amountIn Exact input, pulled from `msg.sender` (or `msg.value` for ETH).
    /// @param minOut The swap reverts unless the recipient receives at least this much (after fees).
    /// @param recipient Receives the output net of fees.
    /// @param deadline Unix seconds; the swap reverts after it.
    /// @param maxRouteFeeBps Bits 0..14: the service fee the quote disclosed, a cap (the registry policy may
    ///        charge less). Bit 15: the pair has a fee of its own (`IBuilderRegistry.FeePolicy.pairFee`), so the
    ///        executor reads the pair's word in its copy of the policy first; a wrong bit costs one more read
    ///        and never changes a fee.
    /// @param maxBuilderFeeBps The builder fee the quote disclosed: a cap; never above the builder's max fee.
    /// @param builderId keccak256 of the builder code the trade is attributed to (zero for none).
    /// @param quoteId The service's quote id, recorded in the settlement event.
    /// @param keyIdHash Hash of the API key id that prepared the swap, recorded in the settlement event.
    struct SwapParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint256 minOut;
        address recipient;
        uint256 deadline;
        uint16 maxRouteFeeBps;
        uint16 maxBuilderFeeBps;
        bytes32 builderId;
        bytes32 quoteId;
        bytes32 keyIdHash;
    }

    /// @notice The third-party contracts `swapThroughAggregator` may call, fixed at deployment; a zero address
    ///         disables its entry.
    /// @param router Entry 1: a route-then-build aggregator's router, called with the built calldata as is.
    /// @param allowanceHolder Entry 2: a firm-quote aggregator's fixed allowance holder (0x's AllowanceHolder).
    /// @param settlerRegistry Entry 2: the registry whose `ownerOf(settlerFeature)` is the only settler the
    ///        allowance holder may be asked to call.
    /// @param settlerFeature Entry 2: the registry's feature of taker-submitted settlement (0x: 2).
    struct AggregatorTargets {
        address router;
        address allowanceHolder;
        address settlerRegistry;
        uint256 settlerFeature;
    }

    /// @notice One attributed swap that charged no fee (both quoted caps zero), emitted by the executor itself:
    ///         nothing is owed, so nothing is stored and no other contract is called. Its settlement entry is
    ///         this event read with `grossAmountOut = amountOut`, both fees zero, and the builder recipient and
    ///         policy version the registry named at the event's block (`recordPolicy(builderId)`):
    ///         docs/rules.md, history rule 1.
    /// @param amountOut What the recipient received (gross and net alike).
    event Attributed(
        bytes32 indexed builderId,
        bytes32 indexed quoteId,
        address indexed payer,
        bytes32 keyIdHash,
        address recipient,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        uint256 amountOut
    );

    /// @notice The executor was re-entered while a swap was running.
    error Reentrancy();
    /// @notice `block.timestamp` is past the swap's deadline.
    error DeadlineExpired(uint256 deadline, uint256 timestamp);
    /// @notice The recipient is the zero address or the executor.
    error InvalidRecipient(address recipient);
    /// @notice `tokenIn` equals `tokenOut`.
    error IdenticalTokens(address token);
    /// @notice `amountIn` is zero.
    error ZeroAmountIn();
    /// @notice `msg.value` must equal `amountIn` for native input and be zero otherwise.
    error InvalidNativeValue(uint256 expected, uint256 actual);
    /// @notice The input token delivered a different amount than requested (fee-on-transfer, rebasing).
    error UnsupportedInputToken(address token, uint256 expected, uint256 received);
    /// @notice The recipient would receive less than `minOut`.
    error InsufficientOutput(uint256 amountOut, uint256 minOut);
    /// @notice A swap callback came from someone other than the pool (or PoolManager) being swapped with.
    error UnauthorizedCallback(address caller);
    /// @notice Native ETH arrived from someone other than WETH9 or the PoolManager, outside an aggregator's
    ///         call.
    error UnexpectedNativeSender(address sender);
    /// @notice The CREATE2-derived canonical V2 pair or V3 pool for a hop has no code.
    error PoolNotDeployed(address pool);
    /// @notice A pool consumed less than the exact input (its price limit was reached).
    error PartialFill(uint256 expected, int256 consumed);
    /// @notice Sending native ETH to `to` failed.
    error NativeTransferFailed(address to, uint256 amount);

    /// @notice `entry` is not 1 (router) or 2 (allowance holder), or the deployment left its contracts out.
    error AggregatorDisabled(uint8 entry);
    /// @notice The deployment named `target` as both entry 1's router and entry 2's allowance holder. Refused:
    ///         entry 1 forwards its calldata unchecked, so it could make the holder open the executor's lasting
    ///         allowances to any operator; only entry 2's checked `exec` may reach the holder.
    error AggregatorTargetsOverlap(address target);
    /// @notice The allowance holder was asked to call, or to allow, `settler`: not the settler the registry
    ///         names active (or the registry names none).
    error SettlerNotActive(address settler);
    /// @notice The allowance holder's calldata is not `exec`, or does not bind `p.tokenIn` and `p.amountIn`.
    error AggregatorBindingMismatch();
    /// @notice The aggregator left `amount` of the input in the executor (0: it took more than `amountIn`).
    error AggregatorLeftInput(uint256 amount);
    /// @notice The aggregator's call reverted (its revert data is not passed on).
    error AggregatorCallFailed();

    /// @notice The route's version byte is not supported (only 0x01 is).
    error UnsupportedRouteVersion(uint256 version);
    /// @notice A route has 1 to 3 branches.
    error InvalidBranchCount(uint256 count);
    /// @notice A branch has 1 to 3 hops.
    error InvalidHopCount(uint256 count);
    /// @notice A hop kind byte other than 1 (V2), 2 (V3) or 3 (V4).
    error UnknownHopKind(uint256 kind);
    /// @notice The route is truncated or has trailing bytes.
    error MalformedRoute(uint256 length);
    /// @notice A branch's amountIn is zero.
    error ZeroBranchAmount(uint256 branch);
    /// @notice The branches' amounts do not add up to `amountIn`.
    error BranchAmountsMismatch(uint256 sum, uint256 amountIn);
    /// @notice A branch's last hop does not output `tokenOut`.
    error BranchEndsInWrongCurrency(address currency, address tokenOut);
    /// @notice A V4 hop names a dynamic or out-of-range fee, or a tick spacing outside 1..32767.
    error InvalidV4PoolKey(uint24 fee, int24 tickSpacing);

    /// @notice Runs `route` for `p`: pulls `p.amountIn` from `msg.sender` (each branch's share straight into
    ///         its first pool; or takes `msg.value`), swaps,
    ///         charges `min(quoted, policy)` fees from the gross output and pays the recipient. A swap that
    ///         charges a fee is settled here (`Settled`, `ISettlementCollector`); an attributed swap
    ///         that charges none emits `Attributed` here; an unattributed swap that charges nothing is not
    ///         recorded.
    /// @param p The swap terms.
    /// @param route The route, encoded as described in `contracts/ROUTE_ENCODING.md`.
    /// @return amountOut What the recipient received (balance change for ERC-20, amount sent for ETH).
    function swap(SwapParams calldata p, bytes calldata route) external payable returns (uint256 amountOut);

    /// @notice Runs a third-party aggregator's transaction for `p` (docs/aggregator-execution.md): takes
    ///         `p.amountIn` from `msg.sender` (or `msg.value`), lends exactly that to the entry's contract
    ///         (entry 1: an exact approval of the router, cleared after the call; entry 2: the allowance
    ///         holder's lasting approval, which only this call's `exec` opens, for its token and amount), and
    ///         calls it with `data`. The aggregator must consume the whole input.
    ///         No service fee is charged (`p.maxRouteFeeBps` is ignored: the aggregator's quote includes its
    ///         own fee); the builder fee is `min(p.maxBuilderFeeBps, policy, 50)` of the output the executor
    ///         received (its own balance change), settled and recorded exactly as by `swap`. Without a
    ///         builder fee the aggregator may pay `p.recipient` directly; what it paid the executor instead
    ///         is sent on, and the output is what the recipient's balance gained.
    /// @param entry 1: `data` is the calldata for `aggregatorRouter`, which pays the executor (or, without a
    ///        builder fee, the recipient). 2: `data` is `exec(operator, token, amount, target, ...)` for
    ///        `allowanceHolder`, with `operator` and `target` the settler `settlerRegistry` names active,
    ///        `token` the input (native ETH as 0xEeee...EEeE) and `amount` exactly `p.amountIn`; the settler
    ///        pays the executor (or, without a builder fee, the recipient).
    /// @return amountOut What the recipient received.
    function swapThroughAggregator(SwapParams calldata p, uint8 entry, bytes calldata data)
        external
        payable
        returns (uint256 amountOut);
}
