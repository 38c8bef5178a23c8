// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface ITransferFeeProbeToken {
    function balanceOf(address account) external view returns (uint256);
}

/// @title TransferFeeProbe
/// @notice Simulation only, never deployed: its runtime code is placed by a state override at a synthetic
///         holder's address, whose balance of each token is set by overriding the token's own storage (the
///         token's code is never replaced). One `eth_call` then sends each token to a fresh recipient and
///         reports, per token, what left the holder and what arrived: a token that takes a fee on transfer
///         shows it as `spent - received`.
contract TransferFeeProbe {
    /// @notice `transfer` succeeded (returned true, or nothing, as older tokens do).
    uint8 public constant TRANSFERRED = 0;
    /// @notice `transfer` reverted.
    uint8 public constant REVERTED = 1;
    /// @notice `transfer` returned false, or data that is not a bool.
    uint8 public constant REFUSED = 2;

    /// @notice Thrown when `tokens` and `amounts` differ in length.
    error LengthMismatch(uint256 tokens, uint256 amounts);

    /// @notice Transfers `amounts[i]` of `tokens[i]` from this account to `recipient`, one token at a time,
    ///         and reports each outcome with the holder's balance decrease and the recipient's increase
    ///         (both 0 unless the transfer succeeded). A token that reverts does not stop the others.
    function measure(address[] calldata tokens, uint256[] calldata amounts, address recipient)
        external
        returns (uint8[] memory outcomes, uint256[] memory spent, uint256[] memory received)
    {
        if (tokens.length != amounts.length) revert LengthMismatch(tokens.length, amounts.length);
        outcomes = new uint8[](tokens.length);
        spent = new uint256[](tokens.length);
        received = new uint256[](tokens.length);
        for (uint256 i = 0; i < tokens.length; ++i) {
            (outcomes[i], spent[i], received[i]) = _send(tokens[i], amounts[i], recipient);
        }
    }

    function _send(address token, uint256 amount, address recipient)
        private
        returns (uint8 outcome, uint256 spent, uint256 received)
    {
        uint256 heldBefore = ITransferFeeProbeToken(token).balanceOf(address(this));
        uint256 receivedBefore = ITransferFeeProbeToken(token).balanceOf(recipient);
        (bool ok, bytes memory result) =
            token.call(abi.encodeWithSignature("transfer(address,uint256)", recipient, amount));
        if (!ok) return (REVERTED, 0, 0);
        if (result.length != 0 && (result.length != 32 || abi.decode(result, (uint256)) != 1)) {
            return (REFUSED, 0, 0);
        }
        uint256 heldAfter = ITransferFeeProbeToken(token).balanceOf(address(this));
        uint256 receivedAfter = ITransferFeeProbeToken(token).balanceOf(recipient);
        // Saturating: a token whose balances move the other way (reflections) reports 0, never underflows.
        spent = heldBefore > heldAfter ? heldBefore - heldAfter : 0;
        received = receivedAfter > receivedBefore ? receivedAfter - receivedBefore : 0;
        outcome = TRANSFERRED;
    }
}
