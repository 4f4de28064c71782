package io.tern.websocket.engine;

/** RFC 6455 §7.4 status codes and the rules for which may appear in a Close frame. */
public final class CloseCodes {
    public static final int NORMAL = 1000;
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    public static final int UNSUPPORTED_DATA = 1003;
    /** Never on the wire: "no status code was present". */
    public static final int NO_STATUS = 1005;
    /** Never on the wire: the connection ended without a Close frame. */
    public static final int ABNORMAL = 1006;

    public static final int INVALID_PAYLOAD = 1007;
    public static final int POLICY_VIOLATION = 1008;
    public static final int MESSAGE_TOO_BIG = 1009;
    public static final int INTERNAL_ERROR = 1011;

    /** §5.5.1: the reason must fit a control frame after the two code bytes. */
    public static final int MAX_REASON_BYTES = 123;

    private CloseCodes() {}

    /**
     * Whether a received Close frame may carry this code: the codes RFC 6455 defines for the wire,
     * the IANA registrations 1012–1014, and the 3000–4999 ranges for libraries and applications.
     */
    public static boolean isValidOnWire(int code) {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
    }
}
