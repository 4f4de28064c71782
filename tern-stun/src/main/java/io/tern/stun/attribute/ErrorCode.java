package io.tern.stun.attribute;

import java.nio.charset.StandardCharsets;

/** Error codes with their RFC reason phrases, pre-encoded so that an error answer allocates nothing. */
public final class ErrorCode {
    public static final int TRY_ALTERNATE = 300;
    public static final int BAD_REQUEST = 400;
    public static final int UNAUTHENTICATED = 401;
    public static final int FORBIDDEN = 403;
    public static final int UNKNOWN_ATTRIBUTE = 420;
    public static final int ALLOCATION_MISMATCH = 437;
    public static final int STALE_NONCE = 438;
    public static final int ADDRESS_FAMILY_NOT_SUPPORTED = 440;
    public static final int WRONG_CREDENTIALS = 441;
    public static final int UNSUPPORTED_TRANSPORT_PROTOCOL = 442;
    public static final int PEER_ADDRESS_FAMILY_MISMATCH = 443;
    /** RFC 6062 §6.3. */
    public static final int CONNECTION_ALREADY_EXISTS = 446;
    /** RFC 6062 §6.3. */
    public static final int CONNECTION_TIMEOUT_OR_FAILURE = 447;

    public static final int ALLOCATION_QUOTA_REACHED = 486;
    public static final int SERVER_ERROR = 500;
    public static final int INSUFFICIENT_CAPACITY = 508;

    private static final int[] CODES = {
        TRY_ALTERNATE,
        BAD_REQUEST,
        UNAUTHENTICATED,
        FORBIDDEN,
        UNKNOWN_ATTRIBUTE,
        ALLOCATION_MISMATCH,
        STALE_NONCE,
        ADDRESS_FAMILY_NOT_SUPPORTED,
        WRONG_CREDENTIALS,
        UNSUPPORTED_TRANSPORT_PROTOCOL,
        PEER_ADDRESS_FAMILY_MISMATCH,
        CONNECTION_ALREADY_EXISTS,
        CONNECTION_TIMEOUT_OR_FAILURE,
        ALLOCATION_QUOTA_REACHED,
        SERVER_ERROR,
        INSUFFICIENT_CAPACITY
    };
    private static final String[] PHRASES = {
        "Try Alternate",
        "Bad Request",
        "Unauthenticated",
        "Forbidden",
        "Unknown Attribute",
        "Allocation Mismatch",
        "Stale Nonce",
        "Address Family not Supported",
        "Wrong Credentials",
        "Unsupported Transport Protocol",
        "Peer Address Family Mismatch",
        "Connection Already Exists",
        "Connection Timeout or Failure",
        "Allocation Quota Reached",
        "Server Error",
        "Insufficient Capacity"
    };
    private static final byte[][] REASONS = new byte[CODES.length][];
    private static final byte[] SERVER_ERROR_REASON;

    static {
        for (int i = 0; i < CODES.length; i++) {
            REASONS[i] = PHRASES[i].getBytes(StandardCharsets.UTF_8);
        }
        SERVER_ERROR_REASON = REASONS[indexOf(SERVER_ERROR)];
    }

    private ErrorCode() {}

    /** Every code this class names, in ascending order. */
    public static int[] codes() {
        return CODES.clone();
    }

    /** The UTF-8 reason phrase for a code (Server Error's for an unknown one); shared, so callers must not modify it. */
    public static byte[] reason(int code) {
        int i = indexOf(code);
        return i < 0 ? SERVER_ERROR_REASON : REASONS[i];
    }

    private static int indexOf(int code) {
        for (int i = 0; i < CODES.length; i++) {
            if (CODES[i] == code) {
                return i;
            }
        }
        return -1;
    }
}
