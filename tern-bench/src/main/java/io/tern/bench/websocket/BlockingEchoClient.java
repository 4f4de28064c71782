package io.tern.bench.websocket;

import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Masking;
import io.tern.websocket.frame.Opcode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** A minimal blocking WebSocket client, identical for every server measured, so only the server differs. */
final class BlockingEchoClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final SplittableRandom random = new SplittableRandom(1);
    private byte[] frame = new byte[64 * 1024];
    private final byte[] header = new byte[FrameHeader.MAX_HEADER_BYTES];
    private byte[] payload = new byte[64 * 1024];

    BlockingEchoClient(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        out = socket.getOutputStream();
        out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during handshake");
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + head);
        }
    }

    /** Appends one masked frame to {@code dst} at {@code offset}; returns the new offset. */
    int encode(boolean text, byte[] message, byte[] dst, int offset) {
        int key = random.nextInt();
        int headerBytes =
                FrameHeader.encode(dst, offset, true, 0, text ? Opcode.TEXT : Opcode.BINARY, message.length, true, key);
        System.arraycopy(message, 0, dst, offset + headerBytes, message.length);
        Masking.mask(dst, offset + headerBytes, message.length, key, 0);
        return offset + headerBytes + message.length;
    }

    void send(boolean text, byte[] message, int count) throws IOException {
        int needed = count * (message.length + FrameHeader.MAX_HEADER_BYTES);
        if (frame.length < needed) {
            frame = new byte[needed];
        }
        int end = 0;
        for (int i = 0; i < count; i++) {
            end = encode(text, message, frame, end);
        }
        out.write(frame, 0, end);
    }

    /** Reads one unfragmented echo and returns its payload length. */
    int receive() throws IOException {
        readFully(header, 0, 2);
        int lengthCode = header[1] & 0x7F;
        int extra = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0;
        readFully(header, 2, extra);
        long length = new FrameHeader().wrap(header, 0).payloadBytes();
        if (payload.length < length) {
            payload = new byte[(int) length];
        }
        readFully(payload, 0, (int) length);
        return (int) length;
    }

    private void readFully(byte[] buf, int offset, int length) throws IOException {
        int read = 0;
        while (read < length) {
            int n = in.read(buf, offset + read, length - read);
            if (n < 0) {
                throw new IOException("connection closed");
            }
            read += n;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
