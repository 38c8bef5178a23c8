// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";

/// @notice The executor's fee credits summed over the accounts a test can credit (the zero account takes the
///         service fee of swaps without a payable builder; a builder's payout wallet takes its builder fee and
///         the service fee of its swaps).
library Credits {
    /// @notice The service's fees of `token` under `accounts`.
    function service(ISettlementCollector c, address token, address[] memory accounts) internal view returns (uint256 sum) {
        for (uint256 i; i < accounts.length; ++i) {
            sum += c.serviceClaimable(accounts[i], token);
        }
    }

    /// @notice Everything the executor owes in `token` to `accounts`: builder fees and the service's.
    function owed(ISettlementCollector c, address token, address[] memory accounts) internal view returns (uint256 sum) {
        for (uint256 i; i < accounts.length; ++i) {
            sum += c.claimable(accounts[i], token) + c.serviceClaimable(accounts[i], token);
        }
    }
}
