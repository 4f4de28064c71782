package io.tern.stun.attribute;

/** STUN attribute types used by Tern (RFC 8489 §18.3, RFC 8656 §18, RFC 6062 §6.2). */
public final class AttributeType {
    // Comprehension-required (0x0000-0x7FFF)
    public static final int MAPPED_ADDRESS = 0x0001;
    public static final int USERNAME = 0x0006;
    public static final int MESSAGE_INTEGRITY = 0x0008;
    public static final int ERROR_CODE = 0x0009;
    public static final int UNKNOWN_ATTRIBUTES = 0x000A;
    public static final int CHANNEL_NUMBER = 0x000C;
    public static final int LIFETIME = 0x000D;
    public static final int XOR_PEER_ADDRESS = 0x0012;
    public static final int DATA = 0x0013;
    public static final int REALM = 0x0014;
    public static final int NONCE = 0x0015;
    public static final int XOR_RELAYED_ADDRESS = 0x0016;
    public static final int REQUESTED_ADDRESS_FAMILY = 0x0017;
    public static final int EVEN_PORT = 0x0018;
    public static final int REQUESTED_TRANSPORT = 0x0019;
    public static final int DONT_FRAGMENT = 0x001A;
    public static final int MESSAGE_INTEGRITY_SHA256 = 0x001C;
    public static final int PASSWORD_ALGORITHM = 0x001D;
    public static final int USERHASH = 0x001E;
    public static final int XOR_MAPPED_ADDRESS = 0x0020;
    public static final int RESERVATION_TOKEN = 0x0022;
    /** RFC 6062 §6.2. */
    public static final int CONNECTION_ID = 0x002A;

    // Comprehension-optional (0x8000-0xFFFF)
    public static final int PASSWORD_ALGORITHMS = 0x8002;
    public static final int ALTERNATE_DOMAIN = 0x8003;
    public static final int SOFTWARE = 0x8022;
    public static final int ALTERNATE_SERVER = 0x8023;
    public static final int FINGERPRINT = 0x8028;
    public static final int ADDITIONAL_ADDRESS_FAMILY = 0x8000;
    public static final int ADDRESS_ERROR_CODE = 0x8001;
    public static final int ICMP = 0x8004;
    public static final int RESPONSE_ORIGIN = 0x802B;
    public static final int OTHER_ADDRESS = 0x802C;

    private AttributeType() {}

    public static boolean isComprehensionRequired(int type) {
        return type < 0x8000;
    }
}
