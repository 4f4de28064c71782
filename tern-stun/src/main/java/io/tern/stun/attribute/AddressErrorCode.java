package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageWriter;

/**
 * ADDRESS-ERROR-CODE (RFC 8656 §18.12): why one family of a dual allocation failed. A family byte,
 * a reserved byte, then the code and reason as in ERROR-CODE.
 */
public final class AddressErrorCode {
    private static final int HEADER_BYTES = 4;

    private AddressErrorCode() {}

    /** Writes it through {@code scratch}, at least 4 bytes longer than the longest reason phrase. */
    public static StunMessageWriter write(StunMessageWriter writer, int wireFamily, int code, byte[] scratch) {
        byte[] reason = ErrorCode.reason(code);
        scratch[0] = (byte) wireFamily;
        scratch[1] = 0;
        scratch[2] = (byte) (code / 100);
        scratch[3] = (byte) (code % 100);
        System.arraycopy(reason, 0, scratch, HEADER_BYTES, reason.length);
        return writer.putBytes(AttributeType.ADDRESS_ERROR_CODE, scratch, 0, HEADER_BYTES + reason.length);
    }

    /** Bytes of scratch {@link #write} needs at most. */
    public static int maxValueBytes() {
        int longest = 0;
        for (int code : ErrorCode.codes()) {
            longest = Math.max(longest, ErrorCode.reason(code).length);
        }
        return HEADER_BYTES + longest;
    }
}
