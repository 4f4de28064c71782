package io.tern.websocket.engine;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Test sink: keeps what an engine transmitted and every event, in order. */
public final class RecordingSink implements WebSocketSink {
    public record Message(boolean text, byte[] payload) {}

    public final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    public final List<Message> messages = new ArrayList<>();
    public final List<byte[]> pongs = new ArrayList<>();
    public boolean opened;
    public int closeCode = -1;
    public String closeReason;
    public int closeTransportCalls;
    /** When set, every received message is sent back (an echo endpoint). */
    public boolean echo;

    @Override
    public void transmit(byte[] buf, int offset, int length) {
        wire.write(buf, offset, length);
    }

    @Override
    public void onOpen(WebSocketEngine engine) {
        opened = true;
    }

    @Override
    public void onMessage(WebSocketEngine engine, boolean text, byte[] buf, int offset, int length) {
        messages.add(new Message(text, Arrays.copyOfRange(buf, offset, offset + length)));
        if (echo) {
            engine.sendMessage(text, buf, offset, length);
        }
    }

    @Override
    public void onPong(WebSocketEngine engine, byte[] buf, int offset, int length) {
        pongs.add(Arrays.copyOfRange(buf, offset, offset + length));
    }

    @Override
    public void onClose(WebSocketEngine engine, int code, String reason) {
        if (closeCode != -1) {
            throw new AssertionError("onClose called twice");
        }
        closeCode = code;
        closeReason = reason;
    }

    @Override
    public void closeTransport() {
        closeTransportCalls++;
    }

    /** Returns and forgets everything transmitted so far. */
    public byte[] takeWire() {
        byte[] bytes = wire.toByteArray();
        wire.reset();
        return bytes;
    }
}
