// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ERC3009DepositCollector: moves a batch-settlement deposit from the payer with the payer's ERC-3009
///        `ReceiveWithAuthorization` (USDC), written for this project to the scheme's published collector interface.
/// @notice The payer signs an authorization to this collector for the deposit; its nonce is
///         keccak256(abi.encode(channelId, salt)), so one signature funds exactly one channel, once.
/// @dev Placed with anvil_setCode at the address @x402/evm's client signs for (0x4020806089470a89826cB9fB1f4059150b550004).
///      Only the settlement contract may call it: the tokens go to the caller, and a signed deposit must end in its
///      channel, never in the pocket of whoever relays it.
contract ERC3009DepositCollector {
    /// The settlement contract at x402's canonical address (no constructor runs under anvil_setCode).
    address public constant SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error OnlySettlement();
    error InvalidSignatureLength();
    error TransferFailed();

    /// `collectorData`: abi.encode(uint256 validAfter, uint256 validBefore, uint256 salt, bytes signature).
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData) external {
        if (msg.sender != SETTLEMENT) revert OnlySettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) = abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        _receive(payer, token, amount, validAfter, validBefore, keccak256(abi.encode(channelId, salt)), signature);
        (bool ok, bytes memory out) = token.call(abi.encodeWithSelector(IERC3009.transfer.selector, msg.sender, amount));
        if (!ok || (out.length != 0 && !abi.decode(out, (bool)))) revert TransferFailed();
    }

    /// The (v, r, s) overload of receiveWithAuthorization: every USDC version has it. The token checks the signature,
    /// the window and that the nonce is unused.
    function _receive(address payer, address token, uint256 amount, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes memory signature) private {
        if (signature.length != 65) revert InvalidSignatureLength();
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        IERC3009(token).receiveWithAuthorization(payer, address(this), amount, validAfter, validBefore, nonce, v, r, s);
    }
}

interface IERC3009 {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;

    function transfer(address to, uint256 amount) external returns (bool);
}
