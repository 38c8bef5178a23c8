// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {DevnetToken} from "../../devnet/DevnetToken.sol";
import {FeeOnTransferToken} from "../../devnet/FeeOnTransferToken.sol";
import {BuilderRegistry} from "../../src/BuilderRegistry.sol";
import {Executor} from "../../src/Executor.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";
import {Credits} from "./Credits.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {IPoolManager, PoolKey} from "../../src/interfaces/external/IPoolManager.sol";
import {LiquidityProvider} from "./LiquidityProvider.sol";
import {
    IPoolManagerFull,
    IQuoterV2,
    IV2Factory,
    IV2PairFull,
    IV2Router,
    IV3Factory,
    IV3PoolFull,
    IV4Quoter,
    IWETH
} from "./UniswapInterfaces.sol";

/// @notice Deploys the OFFICIAL Uniswap V2/V3/V4 bytecode (WETH9, factories, PoolManager, Router02 and the
///         quoters as oracles) from the npm artifacts, seeds real pools, and deploys Junction's registry,
///         collector and executor on top. No pool or PoolManager is mocked.
abstract contract JunctionFixture is Test {
    address internal constant NATIVE = address(0);
    /// @dev sqrt(1) in Q64.96: every pool starts at a 1:1 price (all tokens have 18 decimals).
    uint160 internal constant PRICE_ONE = 79228162514264337593543950336;
    uint256 internal constant SUPPLY = 1e30;

    string internal constant UNISWAP = "../node_modules/@uniswap/";

    IWETH internal weth;
    IV2Factory internal v2Factory;
    IV2Router internal v2Router;
    IV3Factory internal v3Factory;
    IPoolManagerFull internal poolManager;
    IQuoterV2 internal quoterV2;
    IV4Quoter internal v4Quoter;
    bytes32 internal v2InitCodeHash;
    bytes32 internal v3InitCodeHash;

    DevnetToken internal tokA;
    DevnetToken internal tokB;
    DevnetToken internal tokC;
    FeeOnTransferToken internal tax;

    BuilderRegistry internal registry;
    /// @dev The executor as the reviewed collector (its fee credits and claims).
    ISettlementCollector internal collector;
    Executor internal executor;
    LiquidityProvider internal lp;

    address internal gov = makeAddr("governance");
    address internal treasury = makeAddr("treasury");
    address internal builderOwner = makeAddr("builderOwner");
    address internal builderWallet = makeAddr("builderWallet");
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");

    string internal constant BUILDER_CODE = "test-builder";
    bytes32 internal builderId;
    uint16 internal constant DEFAULT_ROUTE_FEE = 25;
    uint16 internal constant AB_ROUTE_FEE = 5;
    uint16 internal constant BUILDER_FEE = 10;
    uint16 internal constant MAX_BUILDER_FEE = 50;

    /// @dev The aggregator contracts the executor is built with: none unless a fixture deploys them first
    ///      (`_beforeJunction`).
    IExecutor.AggregatorTargets internal aggregatorTargets;

    function setUp() public virtual {
        _deployUniswap();
        _deployTokens();
        _seedPools();
        _beforeJunction();
        _deployJunction();
        _fundUsers();
    }

    // ------------------------------------------------------------------ deployment

    function _deployUniswap() internal {
        weth = IWETH(_deploy(_truffleCode("v2-periphery/build/WETH9.json")));
        bytes memory pairCode = _truffleCode("v2-core/build/UniswapV2Pair.json");
        v2InitCodeHash = keccak256(pairCode);
        v2Factory = IV2Factory(
            _deploy(bytes.concat(_truffleCode("v2-core/build/UniswapV2Factory.json"), abi.encode(address(this))))
        );
        v2Router = IV2Router(
            _deploy(
                bytes.concat(
                    _truffleCode("v2-periphery/build/UniswapV2Router02.json"),
                    abi.encode(address(v2Factory), address(weth))
                )
            )
        );
        v3InitCodeHash = keccak256(vm.getCode(_path("v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json")));
        v3Factory =
            IV3Factory(_deploy(vm.getCode(_path("v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"))));
        v3Factory.enableFeeAmount(100, 1);
        quoterV2 = IQuoterV2(
            _deploy(
                bytes.concat(
                    vm.getCode(_path("v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json")),
                    abi.encode(address(v3Factory), address(weth))
                )
            )
        );
        poolManager = IPoolManagerFull(
            _deploy(bytes.concat(vm.getCode(_path("v4-core/out/PoolManager.sol/PoolManager.json")), abi.encode(address(this))))
        );
        v4Quoter = IV4Quoter(
            _deploy(
                bytes.concat(
                    vm.getCode(_path("v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json")),
                    abi.encode(address(poolManager))
                )
            )
        );
        lp = new LiquidityProvider(poolManager);
    }

    function _deployTokens() internal {
        address[] memory holders = new address[](1);
        holders[0] = address(this);
        tokA = new DevnetToken("Token A", "A", 18, holders, SUPPLY);
        tokB = new DevnetToken("Token B", "B", 18, holders, SUPPLY);
        tokC = new DevnetToken("Token C", "C", 18, holders, SUPPLY);
        tax = new FeeOnTransferToken("Taxed", "TAX", 18, holders, SUPPLY, 100);
        vm.deal(address(this), 1e30);
        weth.deposit{value: 1e27}();
    }

    function _seedPools() internal {
        address a = address(tokA);
        address b = address(tokB);
        address c = address(tokC);
        address w = address(weth);
        _seedV2(a, b);
        _seedV2(b, c);
        _seedV2(a, w);
        _seedV2(address(tax), a);
        _seedV2(address(tax), b);

        _seedV3(a, b, 3000);
        _seedV3(a, b, 500);
        _seedV3(b, c, 3000);
        _seedV3(w, a, 3000);
        _seedV3(c, w, 500);

        _seedV4(a, b, 3000, 60);
        _seedV4(b, c, 500, 10);
        _seedV4(NATIVE, a, 3000, 60);
        _seedV4(NATIVE, c, 500, 10);
        _seedV4(w, b, 3000, 60);
    }

    /// @dev What a fixture deploys before Junction's contracts (the aggregator stand-ins the executor names).
    function _beforeJunction() internal virtual {}

    function _deployJunction() internal {
        registry = new BuilderRegistry(gov, treasury, DEFAULT_ROUTE_FEE, MAX_BUILDER_FEE);
        executor = _newExecutor(aggregatorTargets);
        collector = ISettlementCollector(address(executor));
        vm.startPrank(gov);
        registry.setExecutor(executor);
        registry.setPairRouteFee(address(tokA), address(tokB), AB_ROUTE_FEE);
        registry.setCommissioned(true);
        vm.stopPrank();
        vm.prank(builderOwner);
        builderId = registry.register(BUILDER_CODE, builderWallet, BUILDER_FEE);
    }

    /// @dev An executor on the fixture's Uniswap contracts, registry and collector, calling `targets`.
    function _newExecutor(IExecutor.AggregatorTargets memory targets) internal returns (Executor) {
        return new Executor(
            address(weth),
            address(v2Factory),
            v2InitCodeHash,
            address(v3Factory),
            v3InitCodeHash,
            IPoolManager(address(poolManager)),
            registry,
            targets
        );
    }

    function _fundUsers() internal {
        address[2] memory users = [alice, bob];
        for (uint256 i; i < users.length; ++i) {
            _fund(users[i], 1e24);
        }
    }

    /// @dev Gives `user` 1e24 of every token and 1e24 wei, and approves the executor for all of them.
    function _fund(address user, uint256 amount) internal {
        vm.deal(user, amount);
        address[5] memory tokens = [address(tokA), address(tokB), address(tokC), address(tax), address(weth)];
        for (uint256 t; t < tokens.length; ++t) {
            IERC20(tokens[t]).transfer(user, amount);
            vm.prank(user);
            IERC20(tokens[t]).approve(address(executor), type(uint256).max);
        }
    }

    // ------------------------------------------------------------------ pools

    function _seedV2(address x, address y) internal {
        address pair = v2Factory.createPair(x, y);
        IERC20(x).transfer(pair, 1_000_000e18);
        IERC20(y).transfer(pair, 1_000_000e18);
        IV2PairFull(pair).mint(address(this));
    }

    function _seedV3(address x, address y, uint24 fee) internal {
        address pool = v3Factory.createPool(x, y, fee);
        IV3PoolFull(pool).initialize(PRICE_ONE);
        int24 spacing = fee == 500 ? int24(10) : fee == 3000 ? int24(60) : fee == 100 ? int24(1) : int24(200);
        IERC20(x).transfer(address(lp), 2_000_000e18);
        IERC20(y).transfer(address(lp), 2_000_000e18);
        lp.mintV3(IV3PoolFull(pool), _fullRangeLower(spacing), -_fullRangeLower(spacing), 1e24);
        lp.mintV3(IV3PoolFull(pool), -20 * spacing, 20 * spacing, 5e24);
    }

    function _seedV4(address x, address y, uint24 fee, int24 spacing) internal {
        PoolKey memory key = _v4Key(x, y, fee, spacing);
        poolManager.initialize(key, PRICE_ONE);
        _fundLp(x, 2_000_000e18);
        _fundLp(y, 2_000_000e18);
        lp.addV4(key, _fullRangeLower(spacing), -_fullRangeLower(spacing), 1e24);
        lp.addV4(key, -20 * spacing, 20 * spacing, 5e24);
    }

    function _fundLp(address currency, uint256 amount) private {
        if (currency == NATIVE) vm.deal(address(lp), address(lp).balance + amount);
        else IERC20(currency).transfer(address(lp), amount);
    }

    function _fullRangeLower(int24 spacing) private pure returns (int24) {
        return (-887272 / spacing) * spacing;
    }

    function _v4Key(address x, address y, uint24 fee, int24 spacing) internal pure returns (PoolKey memory) {
        (address c0, address c1) = x < y ? (x, y) : (y, x);
        return PoolKey(c0, c1, fee, spacing, address(0));
    }

    function _v2Pair(address x, address y) internal view returns (address) {
        return v2Factory.getPair(x, y);
    }

    function _v3Pool(address x, address y, uint24 fee) internal view returns (address) {
        return v3Factory.getPool(x, y, fee);
    }

    // ------------------------------------------------------------------ oracles (official periphery)

    function _quoteV2(address tokenIn, address tokenOut, uint256 amountIn) internal view returns (uint256) {
        address[] memory path = new address[](2);
        path[0] = tokenIn == NATIVE ? address(weth) : tokenIn;
        path[1] = tokenOut == NATIVE ? address(weth) : tokenOut;
        return v2Router.getAmountsOut(amountIn, path)[1];
    }

    function _quoteV3(address tokenIn, address tokenOut, uint24 fee, uint256 amountIn) internal returns (uint256 out) {
        (out,,,) = quoterV2.quoteExactInputSingle(
            IQuoterV2.QuoteExactInputSingleParams(
                tokenIn == NATIVE ? address(weth) : tokenIn, tokenOut == NATIVE ? address(weth) : tokenOut, amountIn, fee, 0
            )
        );
    }

    function _quoteV4(address currencyIn, address currencyOut, uint24 fee, int24 spacing, uint256 amountIn)
        internal
        returns (uint256 out)
    {
        (out,) = v4Quoter.quoteExactInputSingle(
            IV4Quoter.QuoteExactSingleParams(
                _v4Key(currencyIn, currencyOut, fee, spacing), currencyIn < currencyOut, uint128(amountIn), ""
            )
        );
    }

    // ------------------------------------------------------------------ swaps

    function _params(address tokenIn, address tokenOut, uint256 amountIn, address recipient)
        internal
        view
        returns (IExecutor.SwapParams memory)
    {
        return IExecutor.SwapParams({
            tokenIn: tokenIn,
            tokenOut: tokenOut,
            amountIn: amountIn,
            minOut: 0,
            recipient: recipient,
            deadline: block.timestamp + 600,
            maxRouteFeeBps: 50,
            maxBuilderFeeBps: BUILDER_FEE,
            builderId: builderId,
            quoteId: keccak256("quote"),
            keyIdHash: keccak256("key")
        });
    }

    /// @dev The same swap saying its pair has a fee of its own (`maxRouteFeeBps` bit 15), as the service builds
    ///      it for such a pair.
    function _pairFee(IExecutor.SwapParams memory p) internal pure returns (IExecutor.SwapParams memory) {
        p.maxRouteFeeBps |= 0x8000;
        return p;
    }

    /// @dev The same swap with both fee caps at zero: no fee can be charged.
    function _noFees(IExecutor.SwapParams memory p) internal pure returns (IExecutor.SwapParams memory) {
        p.maxRouteFeeBps = 0;
        p.maxBuilderFeeBps = 0;
        return p;
    }

    function _swapAs(address user, IExecutor.SwapParams memory p, bytes memory route) internal returns (uint256) {
        vm.prank(user);
        return executor.swap{value: p.tokenIn == NATIVE ? p.amountIn : 0}(p, route);
    }

    function _balance(address token, address who) internal view returns (uint256) {
        return token == NATIVE ? who.balance : IERC20(token).balanceOf(who);
    }

    /// @dev Every token and ETH the executor could hold: all must be zero after every call.
    /// @dev The executor holds exactly the fees it owes: nothing of any payer's (the fixture sends it no dust).
    function _assertExecutorEmpty() internal view {
        assertEq(address(executor).balance, _owed(NATIVE), "executor ETH");
        assertEq(tokA.balanceOf(address(executor)), _owed(address(tokA)), "executor A");
        assertEq(tokB.balanceOf(address(executor)), _owed(address(tokB)), "executor B");
        assertEq(tokC.balanceOf(address(executor)), _owed(address(tokC)), "executor C");
        assertEq(tax.balanceOf(address(executor)), _owed(address(tax)), "executor TAX");
        assertEq(weth.balanceOf(address(executor)), _owed(address(weth)), "executor WETH");
    }

    /// @dev The accounts the fixture's swaps can credit: the zero account (no payable builder) and the
    ///      builder's wallet.
    function _feeAccounts() internal view returns (address[] memory accounts) {
        accounts = new address[](2);
        (accounts[0], accounts[1]) = (address(0), builderWallet);
    }

    /// @dev Everything the executor owes in `token`.
    function _owed(address token) internal view returns (uint256) {
        return Credits.owed(collector, token, _feeAccounts());
    }

    /// @dev The service's fees of `token`, under every account.
    function _serviceOwed(address token) internal view returns (uint256) {
        return Credits.service(collector, token, _feeAccounts());
    }

    // ------------------------------------------------------------------ official bytecode

    function _path(string memory relative) internal pure returns (string memory) {
        return string.concat(UNISWAP, relative);
    }

    /// @dev Truffle artifacts (V2, WETH9) keep creation code as bare hex under `bytecode`.
    function _truffleCode(string memory relative) internal view returns (bytes memory) {
        return vm.parseBytes(vm.parseJsonString(vm.readFile(_path(relative)), ".bytecode"));
    }

    function _deploy(bytes memory initCode) internal returns (address deployed) {
        assembly ("memory-safe") {
            deployed := create(0, add(initCode, 0x20), mload(initCode))
        }
        require(deployed != address(0), "deployment failed");
    }

    receive() external payable {}
}
