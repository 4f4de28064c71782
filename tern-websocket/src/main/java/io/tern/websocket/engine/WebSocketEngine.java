package io.tern.websocket.engine;

import io.tern.websocket.deflate.DeflateParameters;
import io.tern.websocket.deflate.MessageDeflater;
import io.tern.websocket.deflate.MessageInflater;
import io.tern.websocket.deflate.PerMessageDeflate;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.GrowableBytes;
import io.tern.websocket.frame.Masking;
import io.tern.websocket.frame.Opcode;
import io.tern.websocket.handshake.ExtensionOffer;
import io.tern.websocket.handshake.Handshake;
import io.tern.websocket.handshake.HttpHead;
import io.tern.websocket.utf8.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A sans-IO RFC 6455 endpoint with RFC 7692 permessage-deflate. It owns no socket, thread or clock:
 * the caller feeds received bytes with {@link #onBytes}, calls {@link #onTimeout} once
 * {@link #nextDeadlineNs()} has passed, and receives everything else through the {@link WebSocketSink}.
 *
 * <p>Input is consumed completely on every call: a frame header is gathered in a 14-byte array and
 * payload goes straight into the message buffer, whose size is bounded by {@link WebSocketConfig}.
 * The engine unmasks payload in place, so the caller's input bytes may be overwritten.
 *
 * <p>Not thread-safe: one engine belongs to one event loop.
 */
public final class WebSocketEngine {
    public enum Role {
        SERVER,
        CLIENT
    }

    /** Connection states (RFC 6455 §4, §7). */
    public enum State {
        /** Opening handshake in progress. */
        CONNECTING,
        OPEN,
        /** We sent a Close frame and wait for the peer's. */
        CLOSING,
        CLOSED
    }

    private enum DecodeState {
        HEADER,
        PAYLOAD
    }

    private static final int NO_MESSAGE = -1;

    private final Role role;
    private final WebSocketConfig config;
    private final WebSocketSink sink;
    private final RandomGenerator random;
    private final String clientHost;
    private final String clientTarget;

    private State state = State.CONNECTING;
    private long handshakeDeadlineNs = Long.MAX_VALUE;
    private long closeDeadlineNs = Long.MAX_VALUE;
    private final GrowableBytes handshakeBytes = new GrowableBytes();
    private String clientKey;
    private String requestTarget;
    private String subprotocol;
    private DeflateParameters deflateParameters;

    private DecodeState decodeState = DecodeState.HEADER;
    private final byte[] headerBytes = new byte[FrameHeader.MAX_HEADER_BYTES];
    private final FrameHeader header = new FrameHeader().wrap(headerBytes, 0);
    private int headerFill;
    private long payloadRemaining;
    private boolean frameMasked;
    private int maskKey;
    private int maskPhase;
    private int frameOpcode;
    private boolean frameFin;

    private int messageOpcode = NO_MESSAGE;
    private boolean messageCompressed;
    private final GrowableBytes message = new GrowableBytes();
    private final Utf8Validator utf8 = new Utf8Validator();
    private final byte[] control = new byte[FrameHeader.MAX_CONTROL_PAYLOAD_BYTES];
    private int controlFill;

    private MessageDeflater deflater;
    private MessageInflater inflater;

    private final byte[] sendHeader = new byte[FrameHeader.MAX_HEADER_BYTES];
    private final GrowableBytes compressed = new GrowableBytes();
    private final GrowableBytes masked = new GrowableBytes();
    private final byte[] controlOut = new byte[FrameHeader.MAX_CONTROL_PAYLOAD_BYTES];

    private WebSocketEngine(
            Role role,
            WebSocketConfig config,
            WebSocketSink sink,
            RandomGenerator random,
            String clientHost,
            String clientTarget) {
        this.role = role;
        this.config = config;
        this.sink = sink;
        this.random = random;
        this.clientHost = clientHost;
        this.clientTarget = clientTarget;
    }

    public static WebSocketEngine server(WebSocketConfig config, WebSocketSink sink) {
        return new WebSocketEngine(Role.SERVER, config, sink, null, null, null);
    }

    /**
     * @param random source of the handshake key and masking keys; RFC 6455 §10.3 wants it unpredictable
     */
    public static WebSocketEngine client(
            WebSocketConfig config, WebSocketSink sink, RandomGenerator random, String host, String target) {
        return new WebSocketEngine(Role.CLIENT, config, sink, random, host, target);
    }

    /** Starts the handshake clock; a client also transmits its opening request. */
    public void start(long nowNs) {
        handshakeDeadlineNs = nowNs + config.handshakeTimeoutNs();
        if (role == Role.CLIENT) {
            byte[] key = new byte[Handshake.KEY_BYTES];
            random.nextBytes(key);
            clientKey = Base64.getEncoder().encodeToString(key);
            StringBuilder request = new StringBuilder(256)
                    .append("GET ")
                    .append(clientTarget)
                    .append(" HTTP/1.1\r\n")
                    .append("Host: ")
                    .append(clientHost)
                    .append("\r\n")
                    .append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
                    .append("Sec-WebSocket-Key: ")
                    .append(clientKey)
                    .append("\r\n")
                    .append("Sec-WebSocket-Version: ")
                    .append(Handshake.VERSION)
                    .append("\r\n");
            if (config.deflate() != null) {
                request.append("Sec-WebSocket-Extensions: ")
                        .append(PerMessageDeflate.offer(config.deflate()))
                        .append("\r\n");
            }
            if (!config.subprotocols().isEmpty()) {
                request.append("Sec-WebSocket-Protocol: ")
                        .append(String.join(", ", config.subprotocols()))
                        .append("\r\n");
            }
            transmitAscii(request.append("\r\n"));
        }
    }

    public Role role() {
        return role;
    }

    public State state() {
        return state;
    }

    /** The request-target of the opening request (server side), e.g. "/chat?room=1". */
    public String requestTarget() {
        return requestTarget;
    }

    /** The negotiated subprotocol, or null. */
    public String subprotocol() {
        return subprotocol;
    }

    /** The negotiated permessage-deflate parameters, or null when messages are not compressed. */
    public DeflateParameters deflateParameters() {
        return deflateParameters;
    }

    /** When {@link #onTimeout} must next be called, or {@link Long#MAX_VALUE} when no timer runs. */
    public long nextDeadlineNs() {
        return switch (state) {
            case CONNECTING -> handshakeDeadlineNs;
            case CLOSING -> closeDeadlineNs;
            default -> Long.MAX_VALUE;
        };
    }

    public void onTimeout(long nowNs) {
        if (nowNs >= nextDeadlineNs()) {
            String reason = state == State.CONNECTING ? "opening handshake timed out" : "close handshake timed out";
            terminate(CloseCodes.ABNORMAL, reason);
        }
    }

    /** The transport closed underneath us. */
    public void onTransportClosed() {
        if (state != State.CLOSED) {
            state = State.CLOSED;
            releaseCodecs();
            sink.onClose(this, CloseCodes.ABNORMAL, "transport closed");
        }
    }

    /** Consumes received bytes; may overwrite them while unmasking. */
    public void onBytes(byte[] buf, int offset, int length, long nowNs) {
        int i = offset;
        final int end = offset + length;
        if (state == State.CONNECTING) {
            i = onHandshakeBytes(buf, offset, length);
            if (i < 0) {
                return;
            }
        }
        while (i < end && state != State.CLOSED) {
            if (decodeState == DecodeState.HEADER) {
                if (headerFill < 2) {
                    int take = Math.min(2 - headerFill, end - i);
                    System.arraycopy(buf, i, headerBytes, headerFill, take);
                    headerFill += take;
                    i += take;
                    if (headerFill < 2) {
                        return;
                    }
                }
                int needed = header.headerBytes();
                if (headerFill < needed) {
                    int take = Math.min(needed - headerFill, end - i);
                    System.arraycopy(buf, i, headerBytes, headerFill, take);
                    headerFill += take;
                    i += take;
                    if (headerFill < needed) {
                        return;
                    }
                }
                headerFill = 0;
                if (!onFrameHeader()) {
                    return;
                }
                decodeState = DecodeState.PAYLOAD;
            }
            int take = (int) Math.min(payloadRemaining, end - i);
            if (frameMasked && take > 0) {
                maskPhase = Masking.mask(buf, i, take, maskKey, maskPhase);
            }
            if (take > 0 && !onPayload(buf, i, take)) {
                return;
            }
            i += take;
            payloadRemaining -= take;
            if (payloadRemaining == 0) {
                decodeState = DecodeState.HEADER;
                if (!onFrameEnd()) {
                    return;
                }
            }
        }
    }

    private boolean onFrameHeader() {
        final int opcode = header.opcode();
        final int rsv = header.rsv();
        final long payloadBytes = header.payloadBytes();
        final boolean control = Opcode.isControl(opcode);
        final boolean rsv1Allowed = deflateParameters != null && !control && opcode != Opcode.CONTINUATION;
        if ((rsv & ~(rsv1Allowed ? FrameHeader.RSV1 : 0)) != 0) {
            return fail(CloseCodes.PROTOCOL_ERROR, "reserved bits set");
        }
        if (!Opcode.isKnown(opcode)) {
            return fail(CloseCodes.PROTOCOL_ERROR, "unknown opcode");
        }
        if (header.masked() != (role == Role.SERVER)) {
            return fail(
                    CloseCodes.PROTOCOL_ERROR, role == Role.SERVER ? "client frame not masked" : "server frame masked");
        }
        if (payloadBytes < 0) {
            return fail(CloseCodes.PROTOCOL_ERROR, "payload length has its top bit set");
        }
        if (control) {
            if (!header.fin() || payloadBytes > FrameHeader.MAX_CONTROL_PAYLOAD_BYTES) {
                return fail(CloseCodes.PROTOCOL_ERROR, "fragmented or oversized control frame");
            }
            controlFill = 0;
        } else {
            if (opcode == Opcode.CONTINUATION) {
                if (messageOpcode == NO_MESSAGE) {
                    return fail(CloseCodes.PROTOCOL_ERROR, "continuation without a message");
                }
            } else {
                if (messageOpcode != NO_MESSAGE) {
                    return fail(CloseCodes.PROTOCOL_ERROR, "new message before the previous one ended");
                }
                messageOpcode = opcode;
                messageCompressed = rsv != 0;
                utf8.reset();
                message.length(0);
            }
            if (payloadBytes > config.maxFrameBytes()
                    || (!messageCompressed && message.length() + payloadBytes > config.maxMessageBytes())) {
                return fail(CloseCodes.MESSAGE_TOO_BIG, "message too big");
            }
        }
        frameOpcode = opcode;
        frameFin = header.fin();
        frameMasked = header.masked();
        maskKey = frameMasked ? header.maskKey() : 0;
        maskPhase = 0;
        payloadRemaining = payloadBytes;
        return true;
    }

    private boolean onPayload(byte[] buf, int offset, int length) {
        if (Opcode.isControl(frameOpcode)) {
            System.arraycopy(buf, offset, control, controlFill, length);
            controlFill += length;
            return true;
        }
        final int start = message.length();
        if (messageCompressed) {
            MessageInflater.Result result = inflater.inflate(buf, offset, length, message, config.maxMessageBytes());
            if (result != MessageInflater.Result.OK) {
                return failInflate(result);
            }
        } else {
            message.ensureWritable(length, config.maxMessageBytes());
            message.append(buf, offset, length);
        }
        return validateText(start);
    }

    private boolean validateText(int start) {
        if (messageOpcode == Opcode.TEXT && !utf8.update(message.array(), start, message.length() - start)) {
            return fail(CloseCodes.INVALID_PAYLOAD, "invalid UTF-8");
        }
        return true;
    }

    private boolean failInflate(MessageInflater.Result result) {
        return result == MessageInflater.Result.TOO_BIG
                ? fail(CloseCodes.MESSAGE_TOO_BIG, "message too big")
                : fail(CloseCodes.INVALID_PAYLOAD, "corrupt deflate data");
    }

    private boolean onFrameEnd() {
        if (Opcode.isControl(frameOpcode)) {
            return onControlFrame();
        }
        if (!frameFin) {
            return true;
        }
        if (messageCompressed) {
            int start = message.length();
            MessageInflater.Result result = inflater.finish(message, config.maxMessageBytes());
            if (result != MessageInflater.Result.OK) {
                return failInflate(result);
            }
            if (!validateText(start)) {
                return false;
            }
        }
        boolean text = messageOpcode == Opcode.TEXT;
        if (text && !utf8.isComplete()) {
            return fail(CloseCodes.INVALID_PAYLOAD, "message ends inside a UTF-8 sequence");
        }
        messageOpcode = NO_MESSAGE;
        sink.onMessage(this, text, message.array(), 0, message.length());
        message.clear(config.retainBufferBytes());
        return state != State.CLOSED;
    }

    private boolean onControlFrame() {
        switch (frameOpcode) {
            case Opcode.PING -> {
                if (state == State.OPEN) {
                    writeFrame(true, 0, Opcode.PONG, control, 0, controlFill);
                }
            }
            case Opcode.PONG -> sink.onPong(this, control, 0, controlFill);
            default -> {
                return onCloseFrame();
            }
        }
        return true;
    }

    /** §5.5.1 and §7.1.5: validate the peer's Close, answer it if we have not closed, then end. */
    private boolean onCloseFrame() {
        int code = CloseCodes.NO_STATUS;
        String reason = "";
        if (controlFill == 1) {
            return fail(CloseCodes.PROTOCOL_ERROR, "close frame with a one-byte payload");
        }
        if (controlFill >= 2) {
            code = ((control[0] & 0xFF) << 8) | (control[1] & 0xFF);
            if (!CloseCodes.isValidOnWire(code)) {
                return fail(CloseCodes.PROTOCOL_ERROR, "invalid close code " + code);
            }
            if (!Utf8Validator.isValid(control, 2, controlFill - 2)) {
                return fail(CloseCodes.INVALID_PAYLOAD, "close reason is not UTF-8");
            }
            reason = new String(control, 2, controlFill - 2, StandardCharsets.UTF_8);
        }
        if (state == State.OPEN) {
            // Echo the peer's code (§5.5.1), from a copy since `control` is also our receive buffer.
            System.arraycopy(control, 0, controlOut, 0, Math.min(controlFill, 2));
            writeFrame(true, 0, Opcode.CLOSE, controlOut, 0, code == CloseCodes.NO_STATUS ? 0 : 2);
        }
        terminate(code, reason);
        return false;
    }

    // ---------------------------------------------------------------- opening handshake

    /** @return index in {@code buf} where frames start, or -1 while the handshake is incomplete or failed */
    private int onHandshakeBytes(byte[] buf, int offset, int length) {
        final int previousBytes = handshakeBytes.length();
        final int room = config.maxHandshakeBytes() - previousBytes;
        final int take = Math.min(room, length);
        handshakeBytes.ensureWritable(take, config.maxHandshakeBytes());
        handshakeBytes.append(buf, offset, take);
        int searchFrom = Math.max(0, previousBytes - 3);
        int found = HttpHead.headLength(handshakeBytes.array(), searchFrom, handshakeBytes.length() - searchFrom);
        if (found < 0) {
            if (handshakeBytes.length() >= config.maxHandshakeBytes()) {
                rejectHandshake("431 Request Header Fields Too Large", "handshake too large");
            }
            return -1;
        }
        final int headBytes = searchFrom + found;
        HttpHead head = HttpHead.parse(handshakeBytes.array(), 0, headBytes);
        handshakeBytes.clear(0);
        if (head == null) {
            rejectHandshake("400 Bad Request", "malformed HTTP head");
            return -1;
        }
        boolean opened = role == Role.SERVER ? acceptRequest(head) : acceptResponse(head);
        return opened ? offset + headBytes - previousBytes : -1;
    }

    /** RFC 6455 §4.2.1 and §4.2.2. */
    private boolean acceptRequest(HttpHead head) {
        String[] requestLine = head.startLine().split(" ", -1);
        if (requestLine.length != 3
                || !requestLine[0].equals("GET")
                || !requestLine[2].equals("HTTP/1.1")
                || requestLine[1].isEmpty()) {
            return rejectHandshake("400 Bad Request", "not a GET HTTP/1.1 request");
        }
        if (head.field("host") == null
                || !head.fieldHasToken("upgrade", "websocket")
                || !head.fieldHasToken("connection", "upgrade")) {
            return rejectHandshake("400 Bad Request", "not a WebSocket upgrade");
        }
        if (!Handshake.VERSION.equals(head.field("sec-websocket-version"))) {
            return rejectHandshake("426 Upgrade Required\r\nSec-WebSocket-Version: 13", "unsupported version");
        }
        String key = head.field("sec-websocket-key");
        if (!Handshake.isValidKey(key)) {
            return rejectHandshake("400 Bad Request", "bad Sec-WebSocket-Key");
        }
        StringBuilder response = new StringBuilder(256)
                .append("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Accept: ")
                .append(Handshake.acceptKey(key))
                .append("\r\n");
        if (config.deflate() != null) {
            List<ExtensionOffer> offers;
            try {
                offers = ExtensionOffer.parseAll(head.field("sec-websocket-extensions"));
            } catch (IllegalArgumentException malformed) {
                // A malformed offer is declined like any other we cannot honour.
                offers = List.of();
            }
            PerMessageDeflate.Accepted accepted = PerMessageDeflate.accept(offers, config.deflate());
            if (accepted != null) {
                response.append("Sec-WebSocket-Extensions: ")
                        .append(accepted.responseElement())
                        .append("\r\n");
                enableDeflate(accepted.parameters());
            }
        }
        String offered = head.field("sec-websocket-protocol");
        if (offered != null) {
            for (String supported : config.subprotocols()) {
                if (head.fieldHasToken("sec-websocket-protocol", supported)) {
                    subprotocol = supported;
                    response.append("Sec-WebSocket-Protocol: ")
                            .append(supported)
                            .append("\r\n");
                    break;
                }
            }
        }
        requestTarget = requestLine[1];
        transmitAscii(response.append("\r\n"));
        open();
        return true;
    }

    /** RFC 6455 §4.1, the client's checks of the server's response. */
    private boolean acceptResponse(HttpHead head) {
        String[] statusLine = head.startLine().split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].equals("HTTP/1.1") || !statusLine[1].equals("101")) {
            return failHandshake("server did not switch protocols: " + head.startLine());
        }
        if (!head.fieldHasToken("upgrade", "websocket") || !head.fieldHasToken("connection", "upgrade")) {
            return failHandshake("missing Upgrade/Connection");
        }
        if (!Handshake.acceptKey(clientKey).equals(head.field("sec-websocket-accept"))) {
            return failHandshake("wrong Sec-WebSocket-Accept");
        }
        String extensions = head.field("sec-websocket-extensions");
        if (extensions != null) {
            List<ExtensionOffer> answered;
            try {
                answered = ExtensionOffer.parseAll(extensions);
            } catch (IllegalArgumentException malformed) {
                return failHandshake("malformed Sec-WebSocket-Extensions");
            }
            if (answered.size() > 1 || config.deflate() == null) {
                return failHandshake("extension not offered");
            }
            if (answered.size() == 1) {
                DeflateParameters parameters = PerMessageDeflate.acceptResponse(answered.get(0), config.deflate());
                if (parameters == null) {
                    return failHandshake("unacceptable permessage-deflate response");
                }
                enableDeflate(parameters);
            }
        }
        String protocol = head.field("sec-websocket-protocol");
        if (protocol != null) {
            if (!config.subprotocols().contains(protocol)) {
                return failHandshake("subprotocol not offered");
            }
            subprotocol = protocol;
        }
        open();
        return true;
    }

    private void enableDeflate(DeflateParameters parameters) {
        PerMessageDeflateConfig deflateConfig = config.deflate();
        deflateParameters = parameters;
        boolean server = role == Role.SERVER;
        deflater = new MessageDeflater(
                deflateConfig.pool(),
                server ? parameters.serverNoContextTakeover() : parameters.clientNoContextTakeover(),
                server ? parameters.serverMaxWindowBits() : parameters.clientMaxWindowBits());
        inflater = new MessageInflater(
                deflateConfig.pool(),
                server ? parameters.clientNoContextTakeover() : parameters.serverNoContextTakeover());
    }

    private void open() {
        state = State.OPEN;
        handshakeDeadlineNs = Long.MAX_VALUE;
        sink.onOpen(this);
    }

    private boolean rejectHandshake(String status, String reason) {
        if (role == Role.SERVER) {
            transmitAscii(new StringBuilder("HTTP/1.1 ")
                    .append(status)
                    .append("\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"));
        }
        return failHandshake(reason);
    }

    private boolean failHandshake(String reason) {
        terminate(CloseCodes.PROTOCOL_ERROR, reason);
        return false;
    }

    // ---------------------------------------------------------------- sending

    /** Sends a text message; {@code utf8} must already be valid UTF-8. Returns false unless open. */
    public boolean sendText(byte[] utf8, int offset, int length) {
        return sendMessage(true, utf8, offset, length);
    }

    public boolean sendBinary(byte[] buf, int offset, int length) {
        return sendMessage(false, buf, offset, length);
    }

    public boolean sendMessage(boolean text, byte[] buf, int offset, int length) {
        if (state != State.OPEN) {
            return false;
        }
        int rsv = 0;
        byte[] payload = buf;
        int payloadOffset = offset;
        int payloadBytes = length;
        if (deflater != null) {
            deflater.compress(buf, offset, length, compressed);
            rsv = FrameHeader.RSV1;
            payload = compressed.array();
            payloadOffset = 0;
            payloadBytes = compressed.length();
        }
        int fragmentBytes = config.autoFragmentBytes() > 0 ? config.autoFragmentBytes() : Integer.MAX_VALUE;
        int opcode = text ? Opcode.TEXT : Opcode.BINARY;
        int sent = 0;
        do {
            int chunk = Math.min(fragmentBytes, payloadBytes - sent);
            boolean fin = sent + chunk == payloadBytes;
            writeFrame(
                    fin,
                    sent == 0 ? rsv : 0,
                    sent == 0 ? opcode : Opcode.CONTINUATION,
                    payload,
                    payloadOffset + sent,
                    chunk);
            sent += chunk;
        } while (sent < payloadBytes);
        compressed.clear(config.retainBufferBytes());
        return true;
    }

    public boolean sendPing(byte[] buf, int offset, int length) {
        if (state != State.OPEN || length > FrameHeader.MAX_CONTROL_PAYLOAD_BYTES) {
            return false;
        }
        writeFrame(true, 0, Opcode.PING, buf, offset, length);
        return true;
    }

    /**
     * Starts the closing handshake (§7.1.2); the peer has {@link WebSocketConfig#closeTimeoutNs()} to answer.
     *
     * @throws IllegalArgumentException if the code may not be sent or the reason is too long
     */
    public void close(int code, String reason, long nowNs) {
        byte[] reasonBytes = reason.getBytes(StandardCharsets.UTF_8);
        if (!CloseCodes.isValidOnWire(code) || reasonBytes.length > CloseCodes.MAX_REASON_BYTES) {
            throw new IllegalArgumentException(
                    "cannot send close code " + code + " with a " + reasonBytes.length + "-byte reason");
        }
        if (state != State.OPEN) {
            return;
        }
        writeClose(code, reasonBytes);
        state = State.CLOSING;
        closeDeadlineNs = nowNs + config.closeTimeoutNs();
    }

    /** Fails the connection (§7.1.7): a Close frame when still allowed, then the transport goes. */
    private boolean fail(int code, String reason) {
        if (state == State.OPEN) {
            writeClose(code, reason.getBytes(StandardCharsets.UTF_8));
        }
        terminate(code, reason);
        return false;
    }

    private void terminate(int code, String reason) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        releaseCodecs();
        sink.onClose(this, code, reason);
        sink.closeTransport();
    }

    private void releaseCodecs() {
        if (deflater != null) {
            deflater.release();
        }
        if (inflater != null) {
            inflater.release();
        }
        message.clear(0);
        compressed.clear(0);
        masked.clear(0);
    }

    private void writeClose(int code, byte[] reasonBytes) {
        controlOut[0] = (byte) (code >>> 8);
        controlOut[1] = (byte) code;
        int reasonLength = Math.min(reasonBytes.length, CloseCodes.MAX_REASON_BYTES);
        System.arraycopy(reasonBytes, 0, controlOut, 2, reasonLength);
        writeFrame(true, 0, Opcode.CLOSE, controlOut, 0, 2 + reasonLength);
    }

    private void writeFrame(boolean fin, int rsv, int opcode, byte[] payload, int offset, int length) {
        if (role == Role.SERVER) {
            int headerLength = FrameHeader.encode(sendHeader, 0, fin, rsv, opcode, length, false, 0);
            sink.transmit(sendHeader, 0, headerLength);
            if (length > 0) {
                sink.transmit(payload, offset, length);
            }
            return;
        }
        int key = random.nextInt();
        int headerLength = FrameHeader.encode(sendHeader, 0, fin, rsv, opcode, length, true, key);
        sink.transmit(sendHeader, 0, headerLength);
        if (length > 0) {
            masked.length(0);
            masked.ensureWritable(length, Integer.MAX_VALUE);
            masked.append(payload, offset, length);
            Masking.mask(masked.array(), 0, length, key, 0);
            sink.transmit(masked.array(), 0, length);
            masked.clear(config.retainBufferBytes());
        }
    }

    private void transmitAscii(CharSequence text) {
        byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
        sink.transmit(bytes, 0, bytes.length);
    }
}
