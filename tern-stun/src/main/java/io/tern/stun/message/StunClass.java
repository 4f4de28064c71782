package io.tern.stun.message;

/** The two class bits of a STUN message type, already in their wire positions (RFC 8489 §5). */
public final class StunClass {
    public static final int REQUEST = 0x0000;
    public static final int INDICATION = 0x0010;
    public static final int SUCCESS_RESPONSE = 0x0100;
    public static final int ERROR_RESPONSE = 0x0110;

    private static final int CLASS_MASK = 0x0110;

    private StunClass() {}

    public static int classOf(int messageType) {
        return messageType & CLASS_MASK;
    }

    /** The method, gathered from the 12 bits interleaved around the class bits. */
    public static int methodOf(int messageType) {
        return (messageType & 0x000F) | ((messageType & 0x00E0) >> 1) | ((messageType & 0x3E00) >> 2);
    }

    public static int messageType(int method, int messageClass) {
        return (method & 0x000F) | ((method & 0x0070) << 1) | ((method & 0x0F80) << 2) | messageClass;
    }
}
