package io.tern.websocket.utf8;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Incremental, fail-fast UTF-8 validator (Björn Höhrmann's DFA). State survives across calls so a
 * message can be validated fragment by fragment, and a sequence that can never become valid is
 * rejected on the byte that makes it so, not at the end of the message.
 */
public final class Utf8Validator {
    public static final int ACCEPT = 0;
    public static final int REJECT = 12;

    private static final VarHandle LONG_VIEW =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private static final byte[] CHAR_CLASS = new byte[256];
    private static final byte[] TRANSITION = {
        0, 12, 24, 36, 60, 96, 84, 12, 12, 12, 48, 72, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
        12, 0, 12, 12, 12, 12, 12, 0, 12, 0, 12, 12, 12, 24, 12, 12, 12, 12, 12, 24, 12, 24, 12, 12,
        12, 12, 12, 12, 12, 12, 12, 24, 12, 12, 12, 12, 12, 24, 12, 12, 12, 12, 12, 12, 12, 24, 12, 12,
        12, 12, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12, 12, 36, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12,
        12, 36, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    };

    static {
        for (int b = 0x80; b <= 0x8F; b++) {
            CHAR_CLASS[b] = 1;
        }
        for (int b = 0x90; b <= 0x9F; b++) {
            CHAR_CLASS[b] = 9;
        }
        for (int b = 0xA0; b <= 0xBF; b++) {
            CHAR_CLASS[b] = 7;
        }
        CHAR_CLASS[0xC0] = 8;
        CHAR_CLASS[0xC1] = 8;
        for (int b = 0xC2; b <= 0xDF; b++) {
            CHAR_CLASS[b] = 2;
        }
        CHAR_CLASS[0xE0] = 10;
        for (int b = 0xE1; b <= 0xEF; b++) {
            CHAR_CLASS[b] = 3;
        }
        CHAR_CLASS[0xED] = 4;
        CHAR_CLASS[0xF0] = 11;
        for (int b = 0xF1; b <= 0xF3; b++) {
            CHAR_CLASS[b] = 6;
        }
        CHAR_CLASS[0xF4] = 5;
        for (int b = 0xF5; b <= 0xFF; b++) {
            CHAR_CLASS[b] = 8;
        }
    }

    private int state = ACCEPT;

    /** Feeds bytes; returns false as soon as the input so far can no longer be valid UTF-8. */
    public boolean update(byte[] buf, int offset, int length) {
        int s = state;
        int i = offset;
        final int end = offset + length;
        while (i < end) {
            if (s == ACCEPT) {
                // ASCII runs dominate real traffic: skip them eight bytes at a time.
                while (i + 8 <= end && (((long) LONG_VIEW.get(buf, i)) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (i == end) {
                    break;
                }
            }
            s = TRANSITION[s + CHAR_CLASS[buf[i] & 0xFF]];
            if (s == REJECT) {
                state = REJECT;
                return false;
            }
            i++;
        }
        state = s;
        return true;
    }

    /** True when every byte seen so far forms complete, valid code points. */
    public boolean isComplete() {
        return state == ACCEPT;
    }

    public boolean isRejected() {
        return state == REJECT;
    }

    public void reset() {
        state = ACCEPT;
    }

    public static boolean isValid(byte[] buf, int offset, int length) {
        Utf8Validator v = new Utf8Validator();
        return v.update(buf, offset, length) && v.isComplete();
    }
}
