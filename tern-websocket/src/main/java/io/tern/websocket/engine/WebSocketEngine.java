package io.tern.websocket.engine;

import io.tern.websocket.deflate.DeflateParameters;
import io.tern.websocket.deflate.MessageDeflater;
import io.tern.websocket.deflate.MessageInflater;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.FrameReader;
import io.tern.websocket.frame.GrowableBytes;
import io.tern.websocket.frame.Masking;
import io.tern.websocket.frame.Opcode;
import io.tern.websocket.handshake.ClientHandshake;
import io.tern.websocket.handshake.Handshake;
import io.tern.websocket.handshake.HandshakeRequest;
import io.tern.websocket.handshake.HttpHead;
import io.tern.websocket.handshake.ServerHandshake;
import io.tern.websocket.utf8.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.random.RandomGenerator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A sans-IO RFC 6455 endpoint with RFC 7692 permessage-deflate. It owns no socket, thread or clock.
 *
 * <p>Inputs: {@link #onBytes} (received bytes), {@link #acceptUpgrade} (a server's decoded opening
 * request), {@link #onTimeout}, {@link #onTransportBacklog} and {@link #onTransportClosed}, each
 * with the caller's {@code nowNs}. Outputs are pulled, never pushed: frames go into the
 * {@link TransmitBuffer} the caller supplies, events come from {@link #poll()}, what to do with the
 * transport from {@link #transportAction()}, and the next timer from {@link #nextDeadlineNs()}.
 * After every input the caller drains {@link #poll()} until {@link Event#NONE}, writes what was
 * transmitted, applies the transport action and arms its timer: only a deadline is then left. The
 * engine calls nothing back, so nothing can re-enter it; sending from an event handler is a new
 * input, made after {@link #poll()} returned.
 *
 * <p>Each received message is copied once, from the caller's input into the engine's message
 * buffer, and unmasked there. {@link #onBytes} stops after a frame that completes an event and
 * returns the bytes it consumed, so at most one message is held at a time: it stays valid until
 * the next {@link #onBytes}. Each sent frame is written once, header and payload together, into the
 * transmit buffer (and masked there on the client side).
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

    /** What {@link #poll()} reports; when several are pending they come in this order. */
    public enum Event {
        NONE,
        /** The opening handshake succeeded: messages may be sent. */
        OPENED,
        /** A complete message: {@link #messageText()}, {@link #messageArray()}, {@link #messageLength()}. */
        MESSAGE,
        /** A Pong frame: {@link #pongArray()}, {@link #pongLength()}. */
        PONG,
        /** {@link #writable()} changed. */
        WRITABILITY_CHANGED,
        /** The connection is closed: {@link #closeCode()}, {@link #closeReason()}. Always the last event. */
        CLOSED
    }

    /** What the transport must do once it has written everything transmitted. */
    public enum TransportAction {
        KEEP_OPEN,
        /**
         * Half-close and wait for the peer to close (discarding its input), until the linger
         * deadline: closing a socket with unread input makes the kernel send a RST, which can destroy
         * what the peer has not read yet (an echo sent just before a protocol error).
         */
        SHUT_DOWN_OUTPUT,
        /** Close now: the linger ran out, the peer stopped reading, or the transport is gone. */
        CLOSE
    }

    private static final int NO_MESSAGE = -1;
    private static final int INFLATE_CHUNK_BYTES = 4096;

    private static final int EVENT_OPENED = 1;
    private static final int EVENT_MESSAGE = 1 << 1;
    private static final int EVENT_PONG = 1 << 2;
    private static final int EVENT_WRITABILITY = 1 << 3;
    private static final int EVENT_CLOSED = 1 << 4;

    private final Role role;
    private final WebSocketConfig config;
    private final TransmitBuffer out;
    private final RandomGenerator random;
    private final String clientHost;
    private final String clientTarget;
    private final UnsafeBuffer arrayInput = new UnsafeBuffer(0, 0);

    private State state = State.CONNECTING;
    private long nowNs;
    private long handshakeDeadlineNs = Long.MAX_VALUE;
    private long closeDeadlineNs = Long.MAX_VALUE;
    private long slowReaderDeadlineNs = Long.MAX_VALUE;
    private long lingerDeadlineNs = Long.MAX_VALUE;
    private boolean closeTransportNow;
    private boolean writable = true;

    private int events;
    private int closeCode;
    private String closeReason;

    private final GrowableBytes handshakeBytes = new GrowableBytes();
    private String clientKey;
    private String requestTarget;
    private String subprotocol;
    private DeflateParameters deflateParameters;

    private final FrameReader frames = new FrameReader();

    private int messageOpcode = NO_MESSAGE;
    private boolean messageCompressed;
    private boolean messageDelivered;
    private boolean messageText;
    private final GrowableBytes message = new GrowableBytes();
    private final Utf8Validator utf8 = new Utf8Validator();
    private final byte[] control = new byte[FrameHeader.MAX_CONTROL_PAYLOAD_BYTES];
    private int controlFill;

    private MessageDeflater deflater;
    private MessageInflater inflater;
    private byte[] inflateChunk;

    private final byte[] sendHeader = new byte[FrameHeader.MAX_HEADER_BYTES];
    private final GrowableBytes compressed = new GrowableBytes();
    private final byte[] controlOut = new byte[FrameHeader.MAX_CONTROL_PAYLOAD_BYTES];

    private WebSocketEngine(
            Role role,
            WebSocketConfig config,
            TransmitBuffer out,
            RandomGenerator random,
            String clientHost,
            String clientTarget) {
        this.role = role;
        this.config = config;
        this.out = out;
        this.random = random;
        this.clientHost = clientHost;
        this.clientTarget = clientTarget;
    }

    /** A server: {@link #start}, then {@link #acceptUpgrade} with the decoded opening request. */
    public static WebSocketEngine server(WebSocketConfig config, TransmitBuffer out) {
        return new WebSocketEngine(Role.SERVER, config, out, null, null, null);
    }

    /**
     * A client: {@link #start} transmits the opening request, {@link #onBytes} reads the answer.
     *
     * @param random source of the handshake key and masking keys; RFC 6455 §10.3 wants it unpredictable
     */
    public static WebSocketEngine client(
            WebSocketConfig config, TransmitBuffer out, RandomGenerator random, String host, String target) {
        return new WebSocketEngine(Role.CLIENT, config, out, random, host, target);
    }

    /** Starts the handshake clock; a client also transmits its opening request. */
    public void start(long nowNs) {
        this.nowNs = nowNs;
        handshakeDeadlineNs = nowNs + config.handshakeTimeoutNs();
        if (role == Role.CLIENT) {
            byte[] key = new byte[Handshake.KEY_BYTES];
            random.nextBytes(key);
            clientKey = Base64.getEncoder().encodeToString(key);
            transmitAscii(ClientHandshake.request(
                    clientHost, clientTarget, clientKey, config.deflate(), config.subprotocols()));
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

    // ---------------------------------------------------------------- outputs

    /** The next pending event, or {@link Event#NONE}. */
    public Event poll() {
        if (events == 0) {
            return Event.NONE;
        }
        int next = Integer.lowestOneBit(events);
        events &= ~next;
        return switch (next) {
            case EVENT_OPENED -> Event.OPENED;
            case EVENT_MESSAGE -> Event.MESSAGE;
            case EVENT_PONG -> Event.PONG;
            case EVENT_WRITABILITY -> Event.WRITABILITY_CHANGED;
            default -> Event.CLOSED;
        };
    }

    /** Whether {@link #poll()} has something to report. */
    public boolean hasEvent() {
        return events != 0;
    }

    /** Of the last {@link Event#MESSAGE}: true for text (already validated as UTF-8), false for binary. */
    public boolean messageText() {
        return messageText;
    }

    /** Of the last {@link Event#MESSAGE}: its bytes are {@code [0, messageLength())}, valid until the next input. */
    public byte[] messageArray() {
        return message.array();
    }

    public int messageLength() {
        return message.length();
    }

    /** Of the last {@link Event#PONG}: its payload is {@code [0, pongLength())}, valid until the next input. */
    public byte[] pongArray() {
        return control;
    }

    public int pongLength() {
        return controlFill;
    }

    /**
     * Of {@link Event#CLOSED}: the peer's status code after a close handshake, ours when we failed
     * the connection, or {@link CloseCodes#ABNORMAL}.
     */
    public int closeCode() {
        return closeCode;
    }

    public String closeReason() {
        return closeReason;
    }

    /** False while the transport's backlog is above the high water mark (until it falls below the low). */
    public boolean writable() {
        return writable;
    }

    public TransportAction transportAction() {
        if (state != State.CLOSED) {
            return TransportAction.KEEP_OPEN;
        }
        return closeTransportNow ? TransportAction.CLOSE : TransportAction.SHUT_DOWN_OUTPUT;
    }

    /** When {@link #onTimeout} must next be called, or {@link Long#MAX_VALUE} when no timer runs. */
    public long nextDeadlineNs() {
        return switch (state) {
            case CONNECTING -> handshakeDeadlineNs;
            case OPEN -> slowReaderDeadlineNs;
            case CLOSING -> Math.min(closeDeadlineNs, slowReaderDeadlineNs);
            case CLOSED -> closeTransportNow ? Long.MAX_VALUE : lingerDeadlineNs;
        };
    }

    // ---------------------------------------------------------------- inputs

    public void onTimeout(long nowNs) {
        this.nowNs = nowNs;
        switch (state) {
            case CONNECTING -> {
                if (nowNs >= handshakeDeadlineNs) {
                    terminate(CloseCodes.ABNORMAL, "opening handshake timed out", true);
                }
            }
            case OPEN, CLOSING -> {
                if (nowNs >= slowReaderDeadlineNs) {
                    terminate(CloseCodes.ABNORMAL, "peer stopped reading", true);
                } else if (nowNs >= closeDeadlineNs) {
                    terminate(CloseCodes.ABNORMAL, "close handshake timed out", true);
                }
            }
            case CLOSED -> {
                if (nowNs >= lingerDeadlineNs) {
                    closeTransportNow = true;
                }
            }
        }
    }

    /**
     * How many bytes the transport holds for the peer, written but not yet sent. Report it after
     * writing what the engine transmitted and whenever the transport drains.
     */
    public void onTransportBacklog(long queuedBytes, long nowNs) {
        this.nowNs = nowNs;
        if (state == State.CLOSED) {
            return;
        }
        BackpressureConfig limits = config.backpressure();
        if (queuedBytes > limits.maxQueuedBytes()) {
            terminate(CloseCodes.ABNORMAL, "peer stopped reading: " + queuedBytes + " bytes queued", true);
        } else if (writable && queuedBytes > limits.highWaterMarkBytes()) {
            writable = false;
            slowReaderDeadlineNs = nowNs + limits.slowReaderTimeoutNs();
            events |= EVENT_WRITABILITY;
        } else if (!writable && queuedBytes < limits.lowWaterMarkBytes()) {
            writable = true;
            slowReaderDeadlineNs = Long.MAX_VALUE;
            events |= EVENT_WRITABILITY;
        }
    }

    /** The transport closed underneath us. */
    public void onTransportClosed(long nowNs) {
        this.nowNs = nowNs;
        terminate(CloseCodes.ABNORMAL, "transport closed", true);
        closeTransportNow = true;
    }

    /**
     * Server side: answers a decoded opening request (RFC 6455 §4.2). When it is acceptable the 101
     * answer is transmitted and {@link Event#OPENED} follows; otherwise the engine is closed and the
     * caller answers with the returned status ({@link ServerHandshake#UPGRADE_REQUIRED} with
     * {@code Sec-WebSocket-Version: 13}).
     *
     * @return {@link ServerHandshake#SWITCHING_PROTOCOLS}, or the HTTP status of the refusal
     */
    public int acceptUpgrade(HandshakeRequest request, long nowNs) {
        if (role != Role.SERVER || state != State.CONNECTING) {
            throw new IllegalStateException("acceptUpgrade is for a server engine that is still connecting");
        }
        this.nowNs = nowNs;
        ServerHandshake.Outcome outcome = ServerHandshake.accept(request, config.deflate(), config.subprotocols());
        if (!outcome.accepted()) {
            terminate(CloseCodes.PROTOCOL_ERROR, outcome.reason(), false);
            return outcome.status();
        }
        requestTarget = request.target();
        subprotocol = outcome.subprotocol();
        if (outcome.deflate() != null) {
            enableDeflate(outcome.deflate());
        }
        transmitAscii(outcome.responseHead());
        open();
        return outcome.status();
    }

    /** {@link #onBytes(DirectBuffer, int, int, long)} over an array. */
    public int onBytes(byte[] buf, int offset, int length, long nowNs) {
        arrayInput.wrap(buf, offset, length);
        return onBytes(arrayInput, 0, length, nowNs);
    }

    /**
     * Consumes received bytes up to the end of the first frame that completes an event (or all of
     * them). The input is only read. Every pending event must have been polled first.
     *
     * @return how many bytes were consumed; feed the rest once the events are drained
     */
    public int onBytes(DirectBuffer src, int offset, int length, long nowNs) {
        if (events != 0) {
            throw new IllegalStateException("poll() every event before the next input");
        }
        this.nowNs = nowNs;
        if (messageDelivered) {
            messageDelivered = false;
            message.clear(config.retainBufferBytes());
        }
        if (state == State.CLOSED) {
            return length;
        }
        if (state == State.CONNECTING) {
            if (role == Role.SERVER) {
                throw new IllegalStateException("a server engine reads frames only after acceptUpgrade");
            }
            return onHandshakeResponse(src, offset, length);
        }
        int i = offset;
        final int end = offset + length;
        while (i < end && events == 0) {
            i += frames.readHeader(src, i, end);
            if (frames.headerReady()) {
                if (!onFrameHeader()) {
                    break;
                }
            } else if (!frames.inPayload()) {
                break;
            }
            int take = frames.payloadBytesIn(end - i);
            if (take > 0 && !onPayload(src, i, take)) {
                break;
            }
            i += take;
            if (frames.payloadRead(take)) {
                onFrameEnd();
            }
        }
        return state == State.CLOSED ? length : i - offset;
    }

    // ---------------------------------------------------------------- frame decoding

    /** The frame's header is read: checks it against the frame rules, then against the message under way. */
    private boolean onFrameHeader() {
        final FrameHeader header = frames.header();
        final int opcode = header.opcode();
        final long payloadBytes = header.payloadBytes();
        final boolean control = Opcode.isControl(opcode);
        final boolean rsv1Allowed = deflateParameters != null && !control && opcode != Opcode.CONTINUATION;
        final String invalid = frames.checkHeader(role == Role.SERVER, rsv1Allowed);
        if (invalid != null) {
            return fail(CloseCodes.PROTOCOL_ERROR, invalid);
        }
        if (control) {
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
                messageCompressed = header.rsv() != 0;
                utf8.reset();
                message.length(0);
            }
            if (payloadBytes > config.maxFrameBytes()
                    || (!messageCompressed && message.length() + payloadBytes > config.maxMessageBytes())) {
                return fail(CloseCodes.MESSAGE_TOO_BIG, "message too big");
            }
        }
        frames.startPayload();
        return true;
    }

    /** The one copy of received payload: from the input into the message (or control) buffer, unmasked there. */
    private boolean onPayload(DirectBuffer src, int index, int length) {
        if (Opcode.isControl(frames.opcode())) {
            src.getBytes(index, control, controlFill, length);
            unmask(control, controlFill, length);
            controlFill += length;
            return true;
        }
        final int start = message.length();
        if (messageCompressed) {
            return inflate(src, index, length) && validateText(start);
        }
        message.ensureWritable(length, config.maxMessageBytes());
        src.getBytes(index, message.array(), start, length);
        unmask(message.array(), start, length);
        message.length(start + length);
        return validateText(start);
    }

    private void unmask(byte[] buf, int offset, int length) {
        frames.unmask(buf, offset, length);
    }

    /** Compressed payload is unmasked a chunk at a time in a small buffer and inflated into the message. */
    private boolean inflate(DirectBuffer src, int index, int length) {
        if (inflateChunk == null) {
            inflateChunk = new byte[INFLATE_CHUNK_BYTES];
        }
        for (int done = 0; done < length; ) {
            int chunk = Math.min(INFLATE_CHUNK_BYTES, length - done);
            src.getBytes(index + done, inflateChunk, 0, chunk);
            unmask(inflateChunk, 0, chunk);
            MessageInflater.Result result = inflater.inflate(inflateChunk, 0, chunk, message, config.maxMessageBytes());
            if (result != MessageInflater.Result.OK) {
                return failInflate(result);
            }
            done += chunk;
        }
        return true;
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

    private void onFrameEnd() {
        if (Opcode.isControl(frames.opcode())) {
            onControlFrame();
            return;
        }
        if (!frames.fin()) {
            return;
        }
        if (messageCompressed) {
            int start = message.length();
            MessageInflater.Result result = inflater.finish(message, config.maxMessageBytes());
            if (result != MessageInflater.Result.OK) {
                failInflate(result);
                return;
            }
            if (!validateText(start)) {
                return;
            }
        }
        boolean text = messageOpcode == Opcode.TEXT;
        if (text && !utf8.isComplete()) {
            fail(CloseCodes.INVALID_PAYLOAD, "message ends inside a UTF-8 sequence");
            return;
        }
        messageOpcode = NO_MESSAGE;
        messageText = text;
        messageDelivered = true;
        events |= EVENT_MESSAGE;
    }

    private void onControlFrame() {
        switch (frames.opcode()) {
            case Opcode.PING -> {
                if (state == State.OPEN) {
                    writeFrame(true, 0, Opcode.PONG, control, 0, controlFill);
                }
            }
            case Opcode.PONG -> events |= EVENT_PONG;
            default -> onCloseFrame();
        }
    }

    /** §5.5.1 and §7.1.5: validate the peer's Close, answer it if we have not closed, then end. */
    private void onCloseFrame() {
        int code = CloseCodes.NO_STATUS;
        String reason = "";
        if (controlFill == 1) {
            fail(CloseCodes.PROTOCOL_ERROR, "close frame with a one-byte payload");
            return;
        }
        if (controlFill >= 2) {
            code = ((control[0] & 0xFF) << 8) | (control[1] & 0xFF);
            if (!CloseCodes.isValidOnWire(code)) {
                fail(CloseCodes.PROTOCOL_ERROR, "invalid close code " + code);
                return;
            }
            if (!Utf8Validator.isValid(control, 2, controlFill - 2)) {
                fail(CloseCodes.INVALID_PAYLOAD, "close reason is not UTF-8");
                return;
            }
            reason = new String(control, 2, controlFill - 2, StandardCharsets.UTF_8);
        }
        if (state == State.OPEN) {
            // Echo the peer's code (§5.5.1), from a copy since `control` is also our receive buffer.
            System.arraycopy(control, 0, controlOut, 0, Math.min(controlFill, 2));
            writeFrame(true, 0, Opcode.CLOSE, controlOut, 0, code == CloseCodes.NO_STATUS ? 0 : 2);
        }
        terminate(code, reason, false);
    }

    // ---------------------------------------------------------------- client side of the opening handshake

    /** @return bytes consumed: up to the end of the head once it is complete, else all */
    private int onHandshakeResponse(DirectBuffer src, int offset, int length) {
        final int previousBytes = handshakeBytes.length();
        final int take = Math.min(config.maxHandshakeBytes() - previousBytes, length);
        handshakeBytes.ensureWritable(take, config.maxHandshakeBytes());
        src.getBytes(offset, handshakeBytes.array(), previousBytes, take);
        handshakeBytes.length(previousBytes + take);
        int searchFrom = Math.max(0, previousBytes - 3);
        int found = HttpHead.headLength(handshakeBytes.array(), searchFrom, handshakeBytes.length() - searchFrom);
        if (found < 0) {
            if (handshakeBytes.length() >= config.maxHandshakeBytes()) {
                terminate(CloseCodes.PROTOCOL_ERROR, "handshake too large", false);
            }
            return length;
        }
        final int headBytes = searchFrom + found;
        HttpHead head = HttpHead.parse(handshakeBytes.array(), 0, headBytes);
        handshakeBytes.clear(0);
        if (head == null) {
            terminate(CloseCodes.PROTOCOL_ERROR, "malformed HTTP head", false);
            return length;
        }
        ClientHandshake.Outcome outcome =
                ClientHandshake.check(head, clientKey, config.deflate(), config.subprotocols());
        if (outcome.failure() != null) {
            terminate(CloseCodes.PROTOCOL_ERROR, outcome.failure(), false);
            return length;
        }
        subprotocol = outcome.subprotocol();
        if (outcome.deflate() != null) {
            enableDeflate(outcome.deflate());
        }
        open();
        return headBytes - previousBytes;
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
        events |= EVENT_OPENED;
    }

    // ---------------------------------------------------------------- sending

    /** Sends a text message; {@code utf8} must already be valid UTF-8. Returns false unless open. */
    public boolean sendText(byte[] utf8, int offset, int length) {
        return sendMessage(true, utf8, offset, length);
    }

    public boolean sendBinary(byte[] buf, int offset, int length) {
        return sendMessage(false, buf, offset, length);
    }

    /** Frames a message into the transmit buffer (compressing it when negotiated). Returns false unless open. */
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

    /**
     * Frames only the header of a message of {@code payloadBytes} whose payload the caller
     * transmits itself, right after the header and before any other call into the engine: a body
     * shared by many connections then reaches every socket without being copied through the
     * engine. Returns false, writing nothing, when the connection is not open, or when the message
     * must be compressed, fragmented or masked; send it with {@link #sendMessage} then.
     */
    public boolean sendHeader(boolean text, int payloadBytes) {
        if (state != State.OPEN
                || deflater != null
                || role != Role.SERVER
                || (config.autoFragmentBytes() > 0 && payloadBytes > config.autoFragmentBytes())) {
            return false;
        }
        int headerLength =
                FrameHeader.encode(sendHeader, 0, true, 0, text ? Opcode.TEXT : Opcode.BINARY, payloadBytes, false, 0);
        out.claim(headerLength).putBytes(0, sendHeader, 0, headerLength);
        return true;
    }

    /** Sends a Ping (at most 125 bytes); the peer's Pong comes back as {@link Event#PONG}. Returns false unless open. */
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
        this.nowNs = nowNs;
        writeClose(code, reasonBytes);
        state = State.CLOSING;
        closeDeadlineNs = nowNs + config.closeTimeoutNs();
    }

    /** Fails the connection (§7.1.7): a Close frame when still allowed, then the transport goes. */
    private boolean fail(int code, String reason) {
        if (state == State.OPEN) {
            writeClose(code, reason.getBytes(StandardCharsets.UTF_8));
        }
        terminate(code, reason, false);
        return false;
    }

    /** @param abort close the transport now instead of half-closing and lingering */
    private void terminate(int code, String reason, boolean abort) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        closeCode = code;
        closeReason = reason;
        events |= EVENT_CLOSED;
        closeTransportNow = abort;
        lingerDeadlineNs = abort ? Long.MAX_VALUE : nowNs + config.closeLingerNs();
        handshakeDeadlineNs = Long.MAX_VALUE;
        closeDeadlineNs = Long.MAX_VALUE;
        slowReaderDeadlineNs = Long.MAX_VALUE;
        if (deflater != null) {
            deflater.release();
        }
        if (inflater != null) {
            inflater.release();
        }
        compressed.clear(0);
        handshakeBytes.clear(0);
    }

    private void writeClose(int code, byte[] reasonBytes) {
        controlOut[0] = (byte) (code >>> 8);
        controlOut[1] = (byte) code;
        int reasonLength = Math.min(reasonBytes.length, CloseCodes.MAX_REASON_BYTES);
        System.arraycopy(reasonBytes, 0, controlOut, 2, reasonLength);
        writeFrame(true, 0, Opcode.CLOSE, controlOut, 0, 2 + reasonLength);
    }

    /** Writes one frame, header and payload, straight into the transmit buffer; a client masks it there. */
    private void writeFrame(boolean fin, int rsv, int opcode, byte[] payload, int offset, int length) {
        boolean masked = role == Role.CLIENT;
        int key = masked ? random.nextInt() : 0;
        int headerLength = FrameHeader.encode(sendHeader, 0, fin, rsv, opcode, length, masked, key);
        MutableDirectBuffer frame = out.claim(headerLength + length);
        frame.putBytes(0, sendHeader, 0, headerLength);
        if (length > 0) {
            frame.putBytes(headerLength, payload, offset, length);
            if (masked) {
                Masking.mask(frame, headerLength, length, key, 0);
            }
        }
    }

    private void transmitAscii(String text) {
        int length = text.length();
        MutableDirectBuffer head = out.claim(length);
        for (int i = 0; i < length; i++) {
            head.putByte(i, (byte) text.charAt(i));
        }
    }
}
