package io.tern.bench.client;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.zip.CRC32;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Constants and small helpers of the STUN/TURN wire format (RFC 8489, RFC 8656), written
 * independently of Tern's own codec so that the benchmark doubles as a cross-check of it.
 * All multi-byte fields are big-endian (network order).
 */
public final class Stun {
    private Stun() {}

    public static final int HEADER_BYTES = 20;
    public static final int MAGIC_COOKIE = 0x2112A442;
    public static final int TRANSACTION_ID_BYTES = 12;

    // Methods (RFC 8489 §18.2, RFC 8656 §17).
    public static final int METHOD_BINDING = 0x001;
    public static final int METHOD_ALLOCATE = 0x003;
    public static final int METHOD_REFRESH = 0x004;
    public static final int METHOD_CREATE_PERMISSION = 0x008;
    public static final int METHOD_CHANNEL_BIND = 0x009;

    // Classes, already shifted into the C1/C0 bit positions of the message type.
    public static final int CLASS_REQUEST = 0x0000;
    public static final int CLASS_INDICATION = 0x0010;
    public static final int CLASS_SUCCESS = 0x0100;
    public static final int CLASS_ERROR = 0x0110;

    // Attributes.
    public static final int ATTR_MAPPED_ADDRESS = 0x0001;
    public static final int ATTR_USERNAME = 0x0006;
    public static final int ATTR_MESSAGE_INTEGRITY = 0x0008;
    public static final int ATTR_ERROR_CODE = 0x0009;
    public static final int ATTR_CHANNEL_NUMBER = 0x000C;
    public static final int ATTR_LIFETIME = 0x000D;
    public static final int ATTR_XOR_PEER_ADDRESS = 0x0012;
    public static final int ATTR_REALM = 0x0014;
    public static final int ATTR_NONCE = 0x0015;
    public static final int ATTR_XOR_RELAYED_ADDRESS = 0x0016;
    public static final int ATTR_REQUESTED_TRANSPORT = 0x0019;
    public static final int ATTR_XOR_MAPPED_ADDRESS = 0x0020;
    public static final int ATTR_SOFTWARE = 0x8022;
    public static final int ATTR_FINGERPRINT = 0x8028;

    public static final int FINGERPRINT_XOR = 0x5354554E;
    public static final int MESSAGE_INTEGRITY_BYTES = 20;
    public static final int PROTOCOL_UDP = 17;

    /** Builds the 14-bit STUN message type from a 12-bit method and a class (RFC 8489 §5). */
    public static int messageType(int method, int messageClass) {
        return (method & 0x000F) | ((method & 0x0070) << 1) | ((method & 0x0F80) << 2) | messageClass;
    }

    public static int methodOf(int messageType) {
        return (messageType & 0x000F) | ((messageType & 0x00E0) >> 1) | ((messageType & 0x3E00) >> 2);
    }

    public static int classOf(int messageType) {
        return messageType & 0x0110;
    }

    /** True if the first byte can start a STUN message (top two bits zero), RFC 8489 §5. */
    public static boolean isStun(int firstByte) {
        return (firstByte & 0xC0) == 0;
    }

    /** True if the first byte can start ChannelData (channel numbers 0x4000-0x4FFF), RFC 8656 §12. */
    public static boolean isChannelData(int firstByte) {
        return (firstByte & 0xC0) == 0x40;
    }

    public static int padded(int length) {
        return (length + 3) & ~3;
    }

    /** CRC-32 of {@code bytes[0, length)} XOR 0x5354554e (RFC 8489 §14.7). */
    public static int fingerprint(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue() ^ FINGERPRINT_XOR;
    }

    public static byte[] hmacSha1(byte[] key, byte[] bytes, int offset, int length) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(key, "HmacSHA1"));
            mac.update(bytes, offset, length);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 unavailable", e);
        }
    }

    /** Long-term credential key: MD5(username ":" realm ":" password), RFC 8489 §9.2.2. */
    public static byte[] longTermKey(String username, String realm, String password) {
        try {
            return MessageDigest.getInstance("MD5")
                    .digest((username + ":" + realm + ":" + password).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("MD5 unavailable", e);
        }
    }

    /** Encodes an XOR-*-ADDRESS attribute value (RFC 8489 §14.2). */
    public static byte[] xorAddress(InetSocketAddress address, byte[] transactionId) {
        byte[] ip = address.getAddress().getAddress();
        ByteBuffer b = ByteBuffer.allocate(4 + ip.length).order(ByteOrder.BIG_ENDIAN);
        b.put((byte) 0).put((byte) (ip.length == 4 ? 0x01 : 0x02));
        b.putShort((short) (address.getPort() ^ (MAGIC_COOKIE >>> 16)));
        byte[] mask = xorMask(transactionId);
        for (int i = 0; i < ip.length; i++) {
            b.put((byte) (ip[i] ^ mask[i]));
        }
        return b.array();
    }

    public static InetSocketAddress decodeXorAddress(byte[] value, byte[] transactionId) {
        int family = value[1] & 0xFF;
        int port = ((value[2] & 0xFF) << 8 | (value[3] & 0xFF)) ^ (MAGIC_COOKIE >>> 16);
        int ipBytes = family == 0x01 ? 4 : 16;
        if (value.length < 4 + ipBytes) {
            throw new IllegalArgumentException("short XOR address: " + value.length + " bytes");
        }
        byte[] mask = xorMask(transactionId);
        byte[] ip = new byte[ipBytes];
        for (int i = 0; i < ipBytes; i++) {
            ip[i] = (byte) (value[4 + i] ^ mask[i]);
        }
        try {
            InetAddress a = InetAddress.getByAddress(ip);
            assert family == 0x01 ? a instanceof Inet4Address : a instanceof Inet6Address;
            return new InetSocketAddress(a, port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static byte[] xorMask(byte[] transactionId) {
        byte[] mask = new byte[16];
        ByteBuffer.wrap(mask).putInt(MAGIC_COOKIE).put(transactionId);
        return mask;
    }
}
