package io.tern.websocket.frame;

/** RFC 6455 §5.2 opcodes. */
public final class Opcode {
    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    private Opcode() {}

    public static boolean isControl(int opcode) {
        return (opcode & 0x8) != 0;
    }

    public static boolean isKnown(int opcode) {
        return opcode <= BINARY || (opcode >= CLOSE && opcode <= PONG);
    }
}
