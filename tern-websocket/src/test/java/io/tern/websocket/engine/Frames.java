package io.tern.websocket.engine;

import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Masking;
import java.io.ByteArrayOutputStream;

/** Builds raw frames the way a (possibly misbehaving) client would put them on the wire. */
public final class Frames {
    public static final int MASK_KEY = 0x37FA213D;

    private Frames() {}

    public static byte[] clientFrame(boolean fin, int rsv, int opcode, byte[] payload) {
        return frame(fin, rsv, opcode, payload, true);
    }

    public static byte[] frame(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) {
        byte[] header = new byte[FrameHeader.MAX_HEADER_BYTES];
        int headerBytes = FrameHeader.encode(header, 0, fin, rsv, opcode, payload.length, masked, MASK_KEY);
        byte[] body = payload.clone();
        if (masked) {
            Masking.mask(body, 0, body.length, MASK_KEY, 0);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header, 0, headerBytes);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    /**
     * A masked client frame whose length is written in the 16-bit form ({@code lengthBytes} 2) or
     * the 64-bit form (8), whether or not §5.2 allows that form for the length.
     */
    public static byte[] clientFrameInLengthForm(int opcode, byte[] payload, int lengthBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x80 | opcode);
        out.write(0x80 | (lengthBytes == 2 ? 126 : 127));
        for (int shift = (lengthBytes - 1) * 8; shift >= 0; shift -= 8) {
            out.write((int) ((long) payload.length >>> shift));
        }
        for (int shift = 24; shift >= 0; shift -= 8) {
            out.write(MASK_KEY >>> shift);
        }
        byte[] body = payload.clone();
        Masking.mask(body, 0, body.length, MASK_KEY, 0);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }

    public static final String UPGRADE_REQUEST = "GET /chat HTTP/1.1\r\n"
            + "Host: server.example.com\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Origin: http://example.com\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n";
}
