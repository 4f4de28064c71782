package io.tern.srt.packet;

/** Control packet types (draft-sharabayko-srt §3.2, Table 1) and the SRT extension subtypes. */
public final class ControlType {
    public static final int HANDSHAKE = 0x0000;
    public static final int KEEPALIVE = 0x0001;
    public static final int ACK = 0x0002;
    public static final int NAK = 0x0003;
    public static final int CONGESTION_WARNING = 0x0004;
    public static final int SHUTDOWN = 0x0005;
    public static final int ACKACK = 0x0006;
    public static final int DROPREQ = 0x0007;
    public static final int PEERERROR = 0x0008;
    /** User-defined type; the SRT extensions (KMREQ/KMRSP after the handshake) travel under it. */
    public static final int USER = 0x7FFF;

    /** Subtypes of {@link #USER}, the same numbers as the handshake extension types. */
    public static final int SUB_KMREQ = 3;

    public static final int SUB_KMRSP = 4;

    private ControlType() {}
}
