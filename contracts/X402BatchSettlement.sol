// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title X402BatchSettlement: x402's `batch-settlement` channel contract, written for this project to the scheme's
///        published specification and ABI (x402-foundation/x402 specs/schemes/batch-settlement, the EVM binding).
/// @notice A payer deposits USDC into a channel once (through a deposit collector that pulls it with the payer's
///         signed authorization); each paid call is an off-chain voucher signing a cumulative ceiling; the receiver
///         claims the latest vouchers of many channels in one transaction and sweeps what it claimed with `settle`.
///         Unclaimed escrow goes back to the payer: cooperatively (`refund`, `refundWithSignature`) or, without the
///         receiver, after the channel's withdraw delay (`initiateWithdraw`, then `finalizeWithdraw`).
/// @dev Placed with anvil_setCode at the address @x402/evm's client and facilitator expect
///      (0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003). No constructor runs there, so nothing lives in immutables: the
///      EIP-712 domain is computed from address(this) and block.chainid at call time, which also binds every channel
///      id and signature to this chain and this deployment. Needs EIP-1153 (transient storage) for its re-entrancy guard.
contract X402BatchSettlement {
    // ---------------------------------------------------------------- types (the scheme's ABI)

    struct ChannelConfig {
        address payer;
        /// Signs vouchers (ECDSA only); zero: vouchers are checked against `payer` (ECDSA or ERC-1271).
        address payerAuthorizer;
        address receiver;
        /// Authorizes claims and refunds with EIP-712 signatures; never zero.
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        /// The channel's cumulative claimed total after this claim (at most the voucher's ceiling).
        uint128 totalClaimed;
    }

    struct Channel {
        /// Deposited, minus what went back to the payer (refunds, withdrawals).
        uint128 balance;
        /// Cumulative amount the receiver claimed; never above `balance`.
        uint128 totalClaimed;
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverTotals {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    // ---------------------------------------------------------------- constants

    uint40 public constant MIN_WITHDRAW_DELAY = 15 minutes;
    uint40 public constant MAX_WITHDRAW_DELAY = 30 days;

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH = keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 public constant CLAIM_BATCH_TYPEHASH =
        keccak256("ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");

    bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant VERSION_HASH = keccak256("1");
    /// Upper bound of a canonical ECDSA `s` (secp256k1n / 2): the other half is the same signature made malleable.
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    // ---------------------------------------------------------------- state

    mapping(bytes32 channelId => Channel) public channels;
    mapping(bytes32 channelId => PendingWithdrawal) public pendingWithdrawals;
    /// Next nonce a `Refund` signature must carry; advanced by every refund, signed or direct.
    mapping(bytes32 channelId => uint256) public refundNonce;
    mapping(address receiver => mapping(address token => ReceiverTotals)) public receivers;

    bool private transient _entered;

    // ---------------------------------------------------------------- events and errors

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed payer, address indexed sender, uint128 amount, uint128 balance);
    event Claimed(bytes32 indexed channelId, address indexed receiver, address indexed sender, uint128 amount, uint128 totalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed payer, uint256 nonce, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, address indexed payer, uint128 amount, uint40 finalizableAt);
    event WithdrawFinalized(bytes32 indexed channelId, address indexed payer, uint128 amount);

    error Reentrancy();
    error ZeroAddress();
    error ZeroAmount();
    error WithdrawDelayOutOfRange();
    error DepositShortfall();
    error EmptyBatch();
    error NotReceiverSide();
    error NotPayerSide();
    error AuthorizerMismatch();
    error InvalidAuthorizerSignature();
    error InvalidVoucherSignature();
    error ClaimExceedsVoucher();
    error ClaimExceedsBalance();
    error WithdrawExceedsAvailable();
    error NoPendingWithdrawal();
    error WithdrawDelayNotElapsed();
    error InvalidRefundNonce();
    error TransferFailed();

    modifier nonReentrant() {
        if (_entered) revert Reentrancy();
        _entered = true;
        _;
        _entered = false;
    }

    // ---------------------------------------------------------------- deposits

    /// Moves `amount` of the channel's token from the payer into the channel, through `collector` (which pulls it
    /// with the payer's own authorization and must hand exactly `amount` to this contract). Anyone may submit it.
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        _checkConfig(config);
        bytes32 channelId = getChannelId(config);
        uint256 before = _balanceOf(config.token);
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        // Whatever the collector is, the escrow grows by exactly what it received.
        if (_balanceOf(config.token) - before != amount) revert DepositShortfall();
        Channel storage ch = channels[channelId];
        bool opens = ch.balance == ch.totalClaimed && ch.totalClaimed == 0;
        ch.balance += amount;
        emit Deposited(channelId, config.payer, msg.sender, amount, ch.balance);
        if (opens) emit ChannelCreated(channelId, config);
    }

    // ---------------------------------------------------------------- claims and settlement

    /// Claims the rows' vouchers; the sender must be each row's receiver or receiver authorizer.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        if (voucherClaims.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            ChannelConfig calldata c = voucherClaims[i].voucher.channel;
            if (msg.sender != c.receiver && msg.sender != c.receiverAuthorizer) revert NotReceiverSide();
            _claim(voucherClaims[i]);
        }
    }

    /// Claims the rows' vouchers for anyone who carries the rows' common receiver authorizer's ClaimBatch signature.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature) external nonReentrant {
        if (voucherClaims.length == 0) revert EmptyBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        for (uint256 i = 1; i < voucherClaims.length; i++) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert AuthorizerMismatch();
        }
        if (!_signedBy(authorizer, getClaimBatchDigest(voucherClaims), authorizerSignature)) revert InvalidAuthorizerSignature();
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            _claim(voucherClaims[i]);
        }
    }

    /// Pays the receiver everything claimed for it in `token` and not yet paid. Anyone may call it; nothing owed is a no-op.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverTotals storage r = receivers[receiver][token];
        uint128 amount = r.totalClaimed - r.totalSettled;
        if (amount == 0) return;
        r.totalSettled = r.totalClaimed;
        _transfer(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ---------------------------------------------------------------- the payer's way out

    /// Starts the timed withdrawal of up to `amount` of unclaimed escrow (replacing one already pending).
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        _onlyPayerSide(config);
        if (amount == 0) revert ZeroAmount();
        bytes32 channelId = getChannelId(config);
        Channel storage ch = channels[channelId];
        if (amount > ch.balance - ch.totalClaimed) revert WithdrawExceedsAvailable();
        pendingWithdrawals[channelId] = PendingWithdrawal(amount, uint40(block.timestamp));
        emit WithdrawInitiated(channelId, config.payer, amount, uint40(block.timestamp) + config.withdrawDelay);
    }

    /// After the withdraw delay, pays the payer the pending amount, capped by what is still unclaimed then.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        _onlyPayerSide(config);
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal memory pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0) revert NoPendingWithdrawal();
        if (block.timestamp < uint256(pending.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();
        delete pendingWithdrawals[channelId];
        Channel storage ch = channels[channelId];
        uint128 available = ch.balance - ch.totalClaimed;
        uint128 amount = pending.amount < available ? pending.amount : available;
        ch.balance -= amount;
        if (amount > 0) _transfer(config.token, config.payer, amount);
        emit WithdrawFinalized(channelId, config.payer, amount);
        if (ch.balance == 0 && ch.totalClaimed == 0) emit ChannelClosed(channelId, config);
    }

    // ---------------------------------------------------------------- cooperative refunds

    /// Returns up to `amount` of unclaimed escrow to the payer; the sender must be the receiver or its authorizer.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotReceiverSide();
        _refund(getChannelId(config), config, amount);
    }

    /// The same for anyone carrying the receiver authorizer's Refund signature over this nonce and amount.
    function refundWithSignature(ChannelConfig calldata config, uint128 amount, uint256 nonce, bytes calldata receiverAuthorizerSignature)
        external
        nonReentrant
    {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert InvalidRefundNonce();
        if (!_signedBy(config.receiverAuthorizer, getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature)) {
            revert InvalidAuthorizerSignature();
        }
        _refund(channelId, config, amount);
    }

    // ---------------------------------------------------------------- batching

    /// Runs several calls of this contract in one transaction (a claim and the settlements it feeds, say).
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory out) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(out, 32), mload(out))
                }
            }
            results[i] = out;
        }
    }

    // ---------------------------------------------------------------- views: identities and digests

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// EIP-5267, so wallets and verifiers read the domain instead of guessing it.
    function eip712Domain()
        external
        view
        returns (bytes1 fields, string memory name, string memory version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] memory extensions)
    {
        return (hex"0f", "x402 Batch Settlement", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    /// The channel's identity: the EIP-712 hash of its immutable config under this chain's and deployment's domain.
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedDigest(
            keccak256(
                abi.encode(
                    CHANNEL_CONFIG_TYPEHASH,
                    config.payer,
                    config.payerAuthorizer,
                    config.receiver,
                    config.receiverAuthorizer,
                    config.token,
                    config.withdrawDelay,
                    config.salt
                )
            )
        );
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    /// The ClaimBatch digest the receiver authorizer signs: every row's channel, ceiling and new total, in order.
    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            entries[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    getChannelId(voucherClaims[i].voucher.channel),
                    voucherClaims[i].voucher.maxClaimableAmount,
                    voucherClaims[i].totalClaimed
                )
            );
        }
        return _typedDigest(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    // ---------------------------------------------------------------- internals

    function _claim(VoucherClaim calldata vc) private {
        ChannelConfig calldata c = vc.voucher.channel;
        bytes32 channelId = getChannelId(c);
        uint128 ceiling = vc.voucher.maxClaimableAmount;
        // A claim never takes more than the payer signed for.
        if (vc.totalClaimed > ceiling) revert ClaimExceedsVoucher();
        if (!_voucherSigned(c, getVoucherDigest(channelId, ceiling), vc.signature)) revert InvalidVoucherSignature();
        Channel storage ch = channels[channelId];
        // Cumulative: a total already reached is claimed already (a resubmitted claim takes nothing twice).
        if (vc.totalClaimed <= ch.totalClaimed) return;
        if (vc.totalClaimed > ch.balance) revert ClaimExceedsBalance();
        uint128 amount = vc.totalClaimed - ch.totalClaimed;
        ch.totalClaimed = vc.totalClaimed;
        receivers[c.receiver][c.token].totalClaimed += amount;
        emit Claimed(channelId, c.receiver, msg.sender, amount, vc.totalClaimed);
    }

    function _refund(bytes32 channelId, ChannelConfig calldata config, uint128 amount) private {
        // First, whatever moves: a refund of nothing still spends its nonce, so a signature for it cannot wait for escrow.
        uint256 nonce = refundNonce[channelId]++;
        Channel storage ch = channels[channelId];
        uint128 available = ch.balance - ch.totalClaimed;
        uint128 paid = amount < available ? amount : available;
        if (paid == 0) return;
        ch.balance -= paid;
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt != 0) {
            // What the payer got back here, it no longer needs to withdraw.
            if (paid >= pending.amount) delete pendingWithdrawals[channelId];
            else pending.amount -= paid;
        }
        _transfer(config.token, config.payer, paid);
        emit Refunded(channelId, config.payer, nonce, paid);
        if (ch.balance == 0 && ch.totalClaimed == 0) emit ChannelClosed(channelId, config);
    }

    function _checkConfig(ChannelConfig calldata c) private pure {
        if (c.payer == address(0) || c.receiver == address(0) || c.receiverAuthorizer == address(0) || c.token == address(0)) revert ZeroAddress();
        if (c.withdrawDelay < MIN_WITHDRAW_DELAY || c.withdrawDelay > MAX_WITHDRAW_DELAY) revert WithdrawDelayOutOfRange();
    }

    function _onlyPayerSide(ChannelConfig calldata c) private view {
        if (msg.sender != c.payer && (c.payerAuthorizer == address(0) || msg.sender != c.payerAuthorizer)) revert NotPayerSide();
    }

    /// A voucher is the payer authorizer's ECDSA signature when one is committed, else the payer's (EOA or ERC-1271).
    function _voucherSigned(ChannelConfig calldata c, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (c.payerAuthorizer != address(0)) return _recover(digest, signature) == c.payerAuthorizer;
        return _signedBy(c.payer, digest, signature);
    }

    /// ECDSA for an account without code, ERC-1271 for a contract.
    function _signedBy(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer.code.length == 0) return _recover(digest, signature) == signer;
        (bool ok, bytes memory out) = signer.staticcall(abi.encodeWithSelector(IERC1271.isValidSignature.selector, digest, signature));
        return ok && out.length >= 32 && abi.decode(out, (bytes4)) == IERC1271.isValidSignature.selector;
    }

    /// The signer of a 65-byte (r, s, v) signature, or zero for anything malformed or malleable.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _typedDigest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    function _balanceOf(address token) private view returns (uint256) {
        return IERC20Minimal(token).balanceOf(address(this));
    }

    function _transfer(address token, address to, uint256 amount) private {
        (bool ok, bytes memory out) = token.call(abi.encodeWithSelector(IERC20Minimal.transfer.selector, to, amount));
        if (!ok || (out.length != 0 && !abi.decode(out, (bool)))) revert TransferFailed();
    }
}

/// What a deposit collector does: pull `amount` of `token` from `payer` (with whatever authorization `collectorData`
/// carries) and hand it to the caller, the settlement contract.
interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData) external;
}

interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IERC1271 {
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4);
}
