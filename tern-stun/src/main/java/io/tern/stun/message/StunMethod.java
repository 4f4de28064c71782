package io.tern.stun.message;

/** STUN and TURN method numbers (RFC 8489 §18.2, RFC 8656 §17). */
public final class StunMethod {
    public static final int BINDING = 0x001;
    public static final int ALLOCATE = 0x003;
    public static final int REFRESH = 0x004;
    public static final int SEND = 0x006;
    public static final int DATA = 0x007;
    public static final int CREATE_PERMISSION = 0x008;
    public static final int CHANNEL_BIND = 0x009;
    /** RFC 6062 §6.1: a TCP connection to a peer from the relayed address. */
    public static final int CONNECT = 0x00A;

    public static final int CONNECTION_BIND = 0x00B;
    public static final int CONNECTION_ATTEMPT = 0x00C;

    private StunMethod() {}

    public static String name(int method) {
        return switch (method) {
            case BINDING -> "Binding";
            case ALLOCATE -> "Allocate";
            case REFRESH -> "Refresh";
            case SEND -> "Send";
            case DATA -> "Data";
            case CREATE_PERMISSION -> "CreatePermission";
            case CHANNEL_BIND -> "ChannelBind";
            case CONNECT -> "Connect";
            case CONNECTION_BIND -> "ConnectionBind";
            case CONNECTION_ATTEMPT -> "ConnectionAttempt";
            default -> "0x" + Integer.toHexString(method);
        };
    }
}
