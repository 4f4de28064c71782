package io.tern.stun.attribute;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMessageDecoder;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * MAPPED-ADDRESS and the XOR-*-ADDRESS attributes (RFC 8489 §14.1, §14.2): family, port and
 * address, XORed with the magic cookie and, for IPv6, the transaction ID.
 */
public final class AddressAttribute {
    public static final int WIRE_FAMILY_IPV4 = 0x01;
    public static final int WIRE_FAMILY_IPV6 = 0x02;
    public static final int IPV4_VALUE_LENGTH = 8;
    public static final int IPV6_VALUE_LENGTH = 20;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    private static final int COOKIE = StunHeaderFlyweight.MAGIC_COOKIE;

    private AddressAttribute() {}

    /**
     * Decodes an XOR address at {@code valueOffset} of the message starting at {@code messageOffset}.
     *
     * @return false if the value is malformed (bad length or family)
     */
    public static boolean decodeXor(
            DirectBuffer buffer,
            int messageOffset,
            int valueOffset,
            int valueLength,
            TransportAddress out,
            byte[] scratch16) {
        return decode(buffer, messageOffset, valueOffset, valueLength, out, scratch16, true);
    }

    /**
     * Decodes the {@code index}-th XOR-PEER-ADDRESS of a decoded message (RFC 8656 §18.3).
     *
     * @return false if there is no such attribute or it is malformed
     */
    public static boolean decodeXorPeer(StunMessageDecoder message, int index, TransportAddress out, byte[] scratch16) {
        if (index >= Math.min(message.peerAddressCount(), StunMessageDecoder.MAX_PEER_ADDRESSES)) {
            return false;
        }
        return decodeXor(
                message.buffer(),
                message.offset(),
                message.peerAddressOffset(index),
                message.peerAddressLength(index),
                out,
                scratch16);
    }

    public static boolean decodePlain(
            DirectBuffer buffer, int valueOffset, int valueLength, TransportAddress out, byte[] scratch16) {
        return decode(buffer, 0, valueOffset, valueLength, out, scratch16, false);
    }

    private static boolean decode(
            DirectBuffer buffer,
            int messageOffset,
            int valueOffset,
            int valueLength,
            TransportAddress out,
            byte[] scratch16,
            boolean xor) {
        if (valueLength < 4) {
            return false;
        }
        int family = buffer.getByte(valueOffset + 1) & 0xFF;
        int port = buffer.getShort(valueOffset + 2, ORDER) & 0xFFFF;
        if (xor) {
            port ^= COOKIE >>> 16;
        }
        if (family == WIRE_FAMILY_IPV4 && valueLength == IPV4_VALUE_LENGTH) {
            int ip = buffer.getInt(valueOffset + 4, ORDER);
            out.setIpv4(xor ? ip ^ COOKIE : ip, port);
            return true;
        }
        if (family == WIRE_FAMILY_IPV6 && valueLength == IPV6_VALUE_LENGTH) {
            buffer.getBytes(valueOffset + 4, scratch16, 0, 16);
            if (xor) {
                // Key is the magic cookie followed by the 96-bit transaction ID: header bytes 4..19.
                for (int i = 0; i < 16; i++) {
                    scratch16[i] ^= buffer.getByte(messageOffset + StunHeaderFlyweight.MAGIC_COOKIE_FIELD_OFFSET + i);
                }
            }
            out.setIpv6(scratch16, 0, port);
            return true;
        }
        return false;
    }

    /** Writes an XOR address value at {@code valueOffset}; returns the value length. */
    public static int encodeXor(
            MutableDirectBuffer buffer, int messageOffset, int valueOffset, TransportAddress address) {
        return encode(buffer, messageOffset, valueOffset, address, true);
    }

    public static int encodePlain(MutableDirectBuffer buffer, int valueOffset, TransportAddress address) {
        return encode(buffer, 0, valueOffset, address, false);
    }

    private static int encode(
            MutableDirectBuffer buffer, int messageOffset, int valueOffset, TransportAddress address, boolean xor) {
        int port = xor ? address.port() ^ (COOKIE >>> 16) : address.port();
        buffer.putByte(valueOffset, (byte) 0);
        buffer.putShort(valueOffset + 2, (short) port, ORDER);
        if (address.isIpv4()) {
            buffer.putByte(valueOffset + 1, (byte) WIRE_FAMILY_IPV4);
            buffer.putInt(valueOffset + 4, xor ? address.ipv4() ^ COOKIE : address.ipv4(), ORDER);
            return IPV4_VALUE_LENGTH;
        }
        buffer.putByte(valueOffset + 1, (byte) WIRE_FAMILY_IPV6);
        byte[] ip = address.ipv6Bytes();
        for (int i = 0; i < 16; i++) {
            byte key = xor ? buffer.getByte(messageOffset + StunHeaderFlyweight.MAGIC_COOKIE_FIELD_OFFSET + i) : 0;
            buffer.putByte(valueOffset + 4 + i, (byte) (ip[i] ^ key));
        }
        return IPV6_VALUE_LENGTH;
    }
}
