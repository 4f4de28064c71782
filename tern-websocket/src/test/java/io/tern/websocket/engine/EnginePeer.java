package io.tern.websocket.engine;

import io.tern.websocket.handshake.HttpHead;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Test driver of one engine, doing what an adapter does: feeds input, drains every event after
 * each input (recording it), and keeps what the engine transmitted.
 */
public final class EnginePeer {
    public record Message(boolean text, byte[] payload) {}

    public final HeapTransmitBuffer wire = new HeapTransmitBuffer();
    public final WebSocketEngine engine;
    public final List<Message> messages = new ArrayList<>();
    public final List<byte[]> pongs = new ArrayList<>();
    public final List<Boolean> writability = new ArrayList<>();
    public boolean opened;
    public int closeCode = -1;
    public String closeReason;
    /** When set, every received message is sent back once polled (an echo endpoint). */
    public boolean echo;

    private EnginePeer(WebSocketConfig config, RandomGenerator random, String host, String target) {
        engine = random == null
                ? WebSocketEngine.server(config, wire)
                : WebSocketEngine.client(config, wire, random, host, target);
    }

    public static EnginePeer server(WebSocketConfig config) {
        return new EnginePeer(config, null, null, null);
    }

    public static EnginePeer client(WebSocketConfig config, RandomGenerator random, String host, String target) {
        return new EnginePeer(config, random, host, target);
    }

    /** A server engine that accepted {@link Frames#UPGRADE_REQUEST}, its 101 answer taken. */
    public static EnginePeer openServer(WebSocketConfig config, long nowNs) {
        EnginePeer peer = server(config);
        peer.engine.start(nowNs);
        int status = peer.acceptUpgrade(Frames.UPGRADE_REQUEST, nowNs);
        if (status != 101) {
            throw new AssertionError("upgrade refused with " + status + ": " + peer.closeReason);
        }
        peer.wire.take();
        return peer;
    }

    /** Parses a request head as a server's HTTP codec would and hands it to the engine. */
    public int acceptUpgrade(String requestHead, long nowNs) {
        byte[] bytes = requestHead.getBytes(StandardCharsets.ISO_8859_1);
        HttpHead head = HttpHead.parse(bytes, 0, bytes.length);
        int status = engine.acceptUpgrade(head, nowNs);
        drain();
        return status;
    }

    public void feed(byte[] bytes, long nowNs) {
        feed(bytes, 0, bytes.length, nowNs);
    }

    /** Feeds input the way an adapter does: consume, drain the events, consume the rest. */
    public void feed(byte[] bytes, int offset, int length, long nowNs) {
        int done = 0;
        while (done < length) {
            int consumed = engine.onBytes(bytes, offset + done, length - done, nowNs);
            if (consumed <= 0 || consumed > length - done) {
                throw new AssertionError("consumed " + consumed + " of " + (length - done));
            }
            done += consumed;
            drain();
        }
    }

    public void timeout(long nowNs) {
        engine.onTimeout(nowNs);
        drain();
    }

    public void backlog(long queuedBytes, long nowNs) {
        engine.onTransportBacklog(queuedBytes, nowNs);
        drain();
    }

    /** Polls until NONE, recording each event; CLOSED must come once and last. */
    public void drain() {
        for (WebSocketEngine.Event event = engine.poll(); event != WebSocketEngine.Event.NONE; event = engine.poll()) {
            if (closeCode != -1) {
                throw new AssertionError(event + " after CLOSED");
            }
            switch (event) {
                case OPENED -> opened = true;
                case MESSAGE -> {
                    byte[] payload = Arrays.copyOf(engine.messageArray(), engine.messageLength());
                    messages.add(new Message(engine.messageText(), payload));
                    if (echo) {
                        engine.sendMessage(engine.messageText(), engine.messageArray(), 0, engine.messageLength());
                    }
                }
                case PONG -> pongs.add(Arrays.copyOf(engine.pongArray(), engine.pongLength()));
                case WRITABILITY_CHANGED -> writability.add(engine.writable());
                case CLOSED -> {
                    closeCode = engine.closeCode();
                    closeReason = engine.closeReason();
                }
                default -> throw new AssertionError(event);
            }
        }
    }

    public boolean closed() {
        return engine.state() == WebSocketEngine.State.CLOSED;
    }

    /** Returns and forgets everything transmitted so far. */
    public byte[] takeWire() {
        return wire.take();
    }
}
