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
            default -> "0x" + Integer.toHexString(method);
        };
    }
}
