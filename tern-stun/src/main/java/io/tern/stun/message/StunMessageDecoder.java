package io.tern.stun.message;

import io.tern.stun.attribute.AttributeType;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * Validates a STUN message and indexes its attributes in one pass, without allocating. After
 * {@link #decode} returns {@link #OK}, the value offset and length of each known attribute's first
 * occurrence can be looked up by type. Attributes after MESSAGE-INTEGRITY are ignored, except
 * MESSAGE-INTEGRITY-SHA256 and FINGERPRINT (RFC 8489 §14.5, §14.6).
 */
public final class StunMessageDecoder {
    public static final int OK = 0;
    /** Not a STUN message at all: wrong cookie, first bits, or length mismatch. Drop silently. */
    public static final int NOT_STUN = 1;
    /** A STUN header, but attributes overrun or FINGERPRINT is not last. */
    public static final int MALFORMED = 2;

    /** At most this many XOR-PEER-ADDRESS attributes are indexed; CreatePermission may carry several. */
    public static final int MAX_PEER_ADDRESSES = 16;
    /** At most this many unknown comprehension-required types are reported in a 420. */
    public static final int MAX_UNKNOWN = 16;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    private static final int[] INDEXED_TYPES = {
        AttributeType.MAPPED_ADDRESS,
        AttributeType.USERNAME,
        AttributeType.MESSAGE_INTEGRITY,
        AttributeType.ERROR_CODE,
        AttributeType.UNKNOWN_ATTRIBUTES,
        AttributeType.CHANNEL_NUMBER,
        AttributeType.LIFETIME,
        AttributeType.DATA,
        AttributeType.REALM,
        AttributeType.NONCE,
        AttributeType.XOR_RELAYED_ADDRESS,
        AttributeType.REQUESTED_ADDRESS_FAMILY,
        AttributeType.EVEN_PORT,
        AttributeType.REQUESTED_TRANSPORT,
        AttributeType.DONT_FRAGMENT,
        AttributeType.MESSAGE_INTEGRITY_SHA256,
        AttributeType.PASSWORD_ALGORITHM,
        AttributeType.USERHASH,
        AttributeType.XOR_MAPPED_ADDRESS,
        AttributeType.RESERVATION_TOKEN,
        AttributeType.CONNECTION_ID,
        AttributeType.PASSWORD_ALGORITHMS,
        AttributeType.ALTERNATE_DOMAIN,
        AttributeType.SOFTWARE,
        AttributeType.ALTERNATE_SERVER,
        AttributeType.FINGERPRINT,
        AttributeType.ADDITIONAL_ADDRESS_FAMILY,
        AttributeType.ADDRESS_ERROR_CODE,
        AttributeType.ICMP,
        AttributeType.RESPONSE_ORIGIN,
        AttributeType.OTHER_ADDRESS,
        AttributeType.XOR_PEER_ADDRESS,
    };

    private final StunHeaderFlyweight header = new StunHeaderFlyweight();
    private final int[] valueOffsets = new int[INDEXED_TYPES.length];
    private final int[] valueLengths = new int[INDEXED_TYPES.length];
    private final int[] peerAddressOffsets = new int[MAX_PEER_ADDRESSES];
    private final int[] peerAddressLengths = new int[MAX_PEER_ADDRESSES];
    private final int[] unknownTypes = new int[MAX_UNKNOWN];
    private int peerAddressCount;
    private int unknownCount;
    private int integrityAttributeOffset;
    private int integritySha256AttributeOffset;
    private int fingerprintAttributeOffset;
    private DirectBuffer buffer;
    private int offset;
    private int length;

    /**
     * Decodes the message of exactly {@code length} bytes at {@code offset}.
     *
     * @return {@link #OK}, {@link #NOT_STUN} or {@link #MALFORMED}
     */
    public int decode(DirectBuffer buffer, int offset, int length) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        reset();
        if (!StunHeaderFlyweight.looksLikeStun(buffer, offset, length)) {
            return NOT_STUN;
        }
        header.wrap(buffer, offset);
        if (header.bodyLength() + StunHeaderFlyweight.HEADER_LENGTH != length) {
            return NOT_STUN;
        }
        int end = offset + length;
        int position = offset + StunHeaderFlyweight.HEADER_LENGTH;
        boolean afterIntegrity = false;
        while (position < end) {
            if (end - position < 4) {
                return MALFORMED;
            }
            int type = buffer.getShort(position, ORDER) & 0xFFFF;
            int valueLength = buffer.getShort(position + 2, ORDER) & 0xFFFF;
            int valueOffset = position + 4;
            int next = valueOffset + ((valueLength + 3) & ~3);
            if (next > end) {
                return MALFORMED;
            }
            if (fingerprintAttributeOffset >= 0) {
                return MALFORMED;
            }
            if (type == AttributeType.FINGERPRINT) {
                fingerprintAttributeOffset = position;
                record(type, valueOffset, valueLength);
            } else if (type == AttributeType.MESSAGE_INTEGRITY_SHA256 && integritySha256AttributeOffset < 0) {
                integritySha256AttributeOffset = position;
                afterIntegrity = true;
                record(type, valueOffset, valueLength);
            } else if (!afterIntegrity) {
                if (type == AttributeType.MESSAGE_INTEGRITY) {
                    integrityAttributeOffset = position;
                    afterIntegrity = true;
                }
                if (type == AttributeType.XOR_PEER_ADDRESS) {
                    if (peerAddressCount < MAX_PEER_ADDRESSES) {
                        peerAddressOffsets[peerAddressCount] = valueOffset;
                        peerAddressLengths[peerAddressCount] = valueLength;
                    }
                    peerAddressCount++;
                }
                if (!record(type, valueOffset, valueLength)
                        && AttributeType.isComprehensionRequired(type)
                        && unknownCount < MAX_UNKNOWN
                        && !containsUnknown(type)) {
                    unknownTypes[unknownCount++] = type;
                }
            }
            position = next;
        }
        return OK;
    }

    private void reset() {
        for (int i = 0; i < valueOffsets.length; i++) {
            valueOffsets[i] = -1;
            valueLengths[i] = 0;
        }
        peerAddressCount = 0;
        unknownCount = 0;
        integrityAttributeOffset = -1;
        integritySha256AttributeOffset = -1;
        fingerprintAttributeOffset = -1;
    }

    private boolean record(int type, int valueOffset, int valueLength) {
        int slot = slotOf(type);
        if (slot < 0) {
            return false;
        }
        if (valueOffsets[slot] < 0) {
            valueOffsets[slot] = valueOffset;
            valueLengths[slot] = valueLength;
        }
        return true;
    }

    private boolean containsUnknown(int type) {
        for (int i = 0; i < unknownCount; i++) {
            if (unknownTypes[i] == type) {
                return true;
            }
        }
        return false;
    }

    private static int slotOf(int type) {
        for (int i = 0; i < INDEXED_TYPES.length; i++) {
            if (INDEXED_TYPES[i] == type) {
                return i;
            }
        }
        return -1;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    /** Offset of the message's first byte in {@link #buffer()}. */
    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    public StunHeaderFlyweight header() {
        return header;
    }

    public int messageType() {
        return header.messageType();
    }

    public int method() {
        return StunClass.methodOf(header.messageType());
    }

    public int messageClass() {
        return StunClass.classOf(header.messageType());
    }

    public boolean has(int type) {
        int slot = slotOf(type);
        return slot >= 0 && valueOffsets[slot] >= 0;
    }

    /** Absolute offset of the first value of {@code type}, or -1 when absent. */
    public int valueOffset(int type) {
        int slot = slotOf(type);
        return slot < 0 ? -1 : valueOffsets[slot];
    }

    public int valueLength(int type) {
        int slot = slotOf(type);
        return slot < 0 ? 0 : valueLengths[slot];
    }

    /** A 32-bit attribute value, or {@code missing} when absent or not 4 bytes long. */
    public int intValue(int type, int missing) {
        int valueOffset = valueOffset(type);
        if (valueOffset < 0 || valueLength(type) != 4) {
            return missing;
        }
        return buffer.getInt(valueOffset, ORDER);
    }

    /** All XOR-PEER-ADDRESS attributes seen before MESSAGE-INTEGRITY (may exceed {@link #MAX_PEER_ADDRESSES}). */
    public int peerAddressCount() {
        return peerAddressCount;
    }

    public int peerAddressOffset(int index) {
        return peerAddressOffsets[index];
    }

    public int peerAddressLength(int index) {
        return peerAddressLengths[index];
    }

    public int unknownRequiredCount() {
        return unknownCount;
    }

    public int unknownRequiredType(int index) {
        return unknownTypes[index];
    }

    /** Absolute offset of the MESSAGE-INTEGRITY attribute header, or -1. */
    public int integrityAttributeOffset() {
        return integrityAttributeOffset;
    }

    public int integritySha256AttributeOffset() {
        return integritySha256AttributeOffset;
    }

    public int fingerprintAttributeOffset() {
        return fingerprintAttributeOffset;
    }

    /** Copies an attribute value into {@code dst}; returns bytes copied, or -1 when absent or too long. */
    public int copyValue(int type, byte[] dst) {
        int valueOffset = valueOffset(type);
        int valueLength = valueLength(type);
        if (valueOffset < 0 || valueLength > dst.length) {
            return -1;
        }
        buffer.getBytes(valueOffset, dst, 0, valueLength);
        return valueLength;
    }
}
