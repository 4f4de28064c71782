package io.tern.srt.handshake;

/**
 * Why a connection was refused, with libsrt's numbers ({@code SRT_REJ_*} in {@code srt.h}, {@code
 * SRT_REJX_*} in {@code access_control.h}). On the wire the handshake type carries the code plus
 * 1000, so a caller reports exactly the code the listener chose.
 */
public final class RejectReason {
    public static final int UNKNOWN = 0;
    public static final int SYSTEM = 1;
    public static final int PEER = 2;
    public static final int RESOURCE = 3;
    public static final int ROGUE = 4;
    public static final int BACKLOG = 5;
    public static final int IPE = 6;
    public static final int CLOSE = 7;
    public static final int VERSION = 8;
    public static final int RDVCOOKIE = 9;
    public static final int BADSECRET = 10;
    public static final int UNSECURE = 11;
    public static final int MESSAGEAPI = 12;
    public static final int CONGESTION = 13;
    public static final int FILTER = 14;
    public static final int GROUP = 15;
    public static final int TIMEOUT = 16;

    /** Access control codes (1000 + an HTTP-like status). */
    public static final int X_BAD_REQUEST = 1400;

    public static final int X_UNAUTHORIZED = 1401;
    public static final int X_OVERLOAD = 1402;
    public static final int X_FORBIDDEN = 1403;
    public static final int X_NOTFOUND = 1404;
    public static final int X_BAD_MODE = 1405;
    public static final int X_CONFLICT = 1409;

    /** The handshake type value of the first rejection code ({@code URQ_FAILURE_TYPES}). */
    public static final int WIRE_BASE = 1000;

    private RejectReason() {}

    public static int toWire(int code) {
        return WIRE_BASE + code;
    }

    public static boolean isRejection(int handshakeType) {
        return handshakeType >= WIRE_BASE;
    }

    public static int fromWire(int handshakeType) {
        return handshakeType - WIRE_BASE;
    }

    public static String name(int code) {
        return switch (code) {
            case UNKNOWN -> "unknown";
            case SYSTEM -> "system";
            case PEER -> "peer";
            case RESOURCE -> "resource";
            case ROGUE -> "rogue";
            case BACKLOG -> "backlog";
            case IPE -> "internal error";
            case CLOSE -> "close";
            case VERSION -> "version";
            case RDVCOOKIE -> "rendezvous cookie";
            case BADSECRET -> "bad secret";
            case UNSECURE -> "unsecure";
            case MESSAGEAPI -> "message api";
            case CONGESTION -> "congestion";
            case FILTER -> "filter";
            case GROUP -> "group";
            case TIMEOUT -> "timeout";
            case X_BAD_REQUEST -> "bad request";
            case X_UNAUTHORIZED -> "unauthorized";
            case X_OVERLOAD -> "overload";
            case X_FORBIDDEN -> "forbidden";
            case X_NOTFOUND -> "not found";
            case X_BAD_MODE -> "bad mode";
            case X_CONFLICT -> "conflict";
            default -> "code " + code;
        };
    }
}
