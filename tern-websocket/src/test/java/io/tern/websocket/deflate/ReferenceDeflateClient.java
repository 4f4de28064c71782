package io.tern.websocket.deflate;

import io.tern.websocket.engine.Frames;
import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Opcode;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A permessage-deflate client written straight on java.util.zip and the RFC text, independent of the
 * engine's deflate code: it compresses what it sends and inflates what the server sends back.
 */
final class ReferenceDeflateClient {
    record Message(boolean text, byte[] payload) {}

    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private final Inflater inflater = new Inflater(true);
    private final boolean clientNoContextTakeover;
    private final boolean serverNoContextTakeover;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private boolean partialText;
    private boolean partialCompressed;

    ReferenceDeflateClient(boolean clientNoContextTakeover, boolean serverNoContextTakeover) {
        this.clientNoContextTakeover = clientNoContextTakeover;
        this.serverNoContextTakeover = serverNoContextTakeover;
    }

    void end() {
        deflater.end();
        inflater.end();
    }

    /** Compressed, masked frames for one message, split into fragments of {@code fragmentBytes} (0: one frame). */
    byte[] encode(boolean text, byte[] message, int fragmentBytes) {
        byte[] compressed = compress(message);
        int step = fragmentBytes > 0 ? fragmentBytes : Math.max(1, compressed.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int sent = 0;
        do {
            int chunk = Math.min(step, compressed.length - sent);
            boolean first = sent == 0;
            byte[] frame = Frames.frame(
                    sent + chunk == compressed.length,
                    first ? FrameHeader.RSV1 : 0,
                    first ? (text ? Opcode.TEXT : Opcode.BINARY) : Opcode.CONTINUATION,
                    Arrays.copyOfRange(compressed, sent, sent + chunk),
                    true);
            out.write(frame, 0, frame.length);
            sent += chunk;
        } while (sent < compressed.length);
        return out.toByteArray();
    }

    private byte[] compress(byte[] message) {
        deflater.setInput(message);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int produced;
        do {
            produced = deflater.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH);
            out.write(chunk, 0, produced);
        } while (produced == chunk.length);
        if (clientNoContextTakeover) {
            deflater.reset();
        }
        byte[] bytes = out.toByteArray();
        return Arrays.copyOf(bytes, bytes.length - 4);
    }

    /** Decodes unmasked server frames; returns the complete messages found. */
    List<Message> decode(byte[] wire) throws DataFormatException {
        List<Message> messages = new ArrayList<>();
        int i = 0;
        FrameHeader header = new FrameHeader();
        while (i < wire.length) {
            header.wrap(wire, i);
            if (header.masked() || (header.opcode() == Opcode.CONTINUATION && header.rsv() != 0)) {
                throw new AssertionError("server frames are unmasked and RSV1 marks only a message's first frame");
            }
            int payloadStart = i + header.headerBytes();
            int payloadBytes = (int) header.payloadBytes();
            if (header.opcode() != Opcode.CONTINUATION) {
                if (Opcode.isControl(header.opcode())) {
                    throw new AssertionError("unexpected control frame " + header.opcode());
                }
                partial.reset();
                partialText = header.opcode() == Opcode.TEXT;
                partialCompressed = header.rsv() == FrameHeader.RSV1;
            }
            partial.write(wire, payloadStart, payloadBytes);
            if (header.fin()) {
                byte[] payload = partial.toByteArray();
                messages.add(new Message(partialText, partialCompressed ? inflate(payload) : payload));
            }
            i = payloadStart + payloadBytes;
        }
        return messages;
    }

    private byte[] inflate(byte[] compressed) throws DataFormatException {
        byte[] withTail = Arrays.copyOf(compressed, compressed.length + 4);
        withTail[compressed.length + 2] = (byte) 0xFF;
        withTail[compressed.length + 3] = (byte) 0xFF;
        inflater.setInput(withTail);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        while (!inflater.needsInput()) {
            int produced = inflater.inflate(chunk);
            out.write(chunk, 0, produced);
        }
        if (serverNoContextTakeover) {
            inflater.reset();
        }
        return out.toByteArray();
    }
}
