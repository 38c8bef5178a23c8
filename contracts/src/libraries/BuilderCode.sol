// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title BuilderCode
/// @notice Builder codes: public, case-sensitive attribution tags matching `^[A-Za-z0-9_-]{3,32}$`.
library BuilderCode {
    uint256 internal constant MIN_LENGTH = 3;
    uint256 internal constant MAX_LENGTH = 32;

    /// @notice Whether `code` matches `^[A-Za-z0-9_-]{3,32}$`.
    function isValid(bytes memory code) internal pure returns (bool) {
        uint256 length = code.length;
        if (length < MIN_LENGTH || length > MAX_LENGTH) return false;
        for (uint256 i; i < length; ++i) {
            bytes1 c = code[i];
            bool ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_"
                || c == "-";
            if (!ok) return false;
        }
        return true;
    }

    /// @notice The builder id of `code`: `keccak256(bytes(code))`.
    function id(bytes memory code) internal pure returns (bytes32) {
        return keccak256(code);
    }
}
