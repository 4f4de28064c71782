package io.tern.srt;

import io.tern.srt.crypto.SendKeys;
import io.tern.srt.handshake.Handshake;
import io.tern.srt.handshake.HandshakeFormatException;
import io.tern.srt.handshake.RejectReason;
import io.tern.srt.packet.ControlType;
import io.tern.srt.packet.SeqNo;
import io.tern.srt.packet.SrtHeader;
import java.net.InetSocketAddress;
import java.util.random.RandomGenerator;

/**
 * An SRT caller in live mode: connects to one listener (induction, then conclusion with HSREQ,
 * KMREQ and the stream id, each repeated every 250 ms as libsrt does until answered or the connect
 * timeout passes) and then sends, encrypted when a passphrase is set. It pushes a stream to
 * another SRT listener and drives load tests.
 */
public final class SrtCaller extends SrtEndpoint {
    static final long RETRY_NS = 250_000_000L;
    /** libsrt's default key refresh: 2^24 packets, announced 2^16 packets ahead. */
    public static final long DEFAULT_REFRESH_RATE = 1L << 24;

    public static final long DEFAULT_PRE_ANNOUNCE = 1L << 16;

    /**
     * What to ask for.
     *
     * @param streamId sent in the SID extension (null: none)
     * @param passphrase null or empty for no encryption
     * @param keyLength 16, 24 or 32 (pbkeylen)
     */
    public record Options(String streamId, String passphrase, int keyLength, long refreshRate, long preAnnounce) {
        public static Options of(String streamId, String passphrase, int keyLength) {
            return new Options(streamId, passphrase, keyLength, DEFAULT_REFRESH_RATE, DEFAULT_PRE_ANNOUNCE);
        }

        public Options {
            if (passphrase != null && !passphrase.isEmpty()) {
                SrtSettings.checkPassphrase(passphrase);
            }
        }

        boolean encrypted() {
            return passphrase != null && !passphrase.isEmpty();
        }
    }

    private enum State {
        IDLE,
        INDUCTION,
        CONCLUSION,
        CONNECTED,
        DONE
    }

    private static final int CALLER_FLAGS = Handshake.FLAG_TSBPDSND
            | Handshake.FLAG_TSBPDRCV
            | Handshake.FLAG_CRYPT
            | Handshake.FLAG_TLPKTDROP
            | Handshake.FLAG_PERIODICNAK
            | Handshake.FLAG_REXMITFLG;

    private final Options options;
    private final byte[] scratch = new byte[Outbox.DATAGRAM_BYTES];
    private State state = State.IDLE;
    private InetSocketAddress remote;
    private long startNs;
    private long deadlineNs;
    private long nextRetryNs = Long.MAX_VALUE;
    private int socketId;
    private int initialSeq;
    private int cookie;
    private SendKeys keys;
    private byte[] kmRequest;
    private SrtConnection connection;

    public SrtCaller(SrtSettings settings, Options options, RandomGenerator random) {
        super(settings, random, 8192, 1024);
        this.options = options;
    }

    /** Starts the handshake; the session id is this caller's socket id. */
    public long connect(InetSocketAddress listener, long nowNs) {
        if (state != State.IDLE) {
            throw new IllegalStateException("connect called twice");
        }
        remote = listener;
        startNs = nowNs;
        deadlineNs = nowNs + settings.connectTimeoutMs() * 1_000_000L;
        socketId = newSocketId();
        initialSeq = random.nextInt() & SeqNo.MAX;
        if (options.encrypted()) {
            keys = new SendKeys(
                    options.passphrase(), options.keyLength(), options.refreshRate(), options.preAnnounce(), random);
            kmRequest = keys.initialMaterial().encode();
        }
        state = State.INDUCTION;
        sendHandshake(nowNs);
        return socketId;
    }

    public boolean connected() {
        return state == State.CONNECTED && connection != null && !connection.closed();
    }

    public long sessionId() {
        return socketId;
    }

    /** Sends one payload (e.g. 7 TS packets, 1316 bytes); dropped unless connected. */
    public void send(byte[] payload, int off, int len, long nowNs) {
        if (connected()) {
            connection.send(payload, off, len, nowNs);
        }
    }

    public void onDatagram(byte[] b, int off, int len, InetSocketAddress from, long nowNs) {
        if (len > SrtSettings.MTU) {
            droppedOversized++;
            return;
        }
        if (len < SrtHeader.LENGTH || !from.equals(remote)) {
            droppedMalformed++;
            return;
        }
        if (SrtHeader.destSocket(b, off) != socketId) {
            droppedUnknownSocket++;
            return;
        }
        if (state == State.CONNECTED) {
            connection.onPacket(b, off, len, nowNs);
            if (connection.closed()) {
                sessions.remove(socketId);
                state = State.DONE;
            }
            return;
        }
        if (!SrtHeader.isControl(b, off) || SrtHeader.controlType(b, off) != ControlType.HANDSHAKE) {
            return;
        }
        Handshake hs;
        try {
            hs = Handshake.parse(b, off + SrtHeader.LENGTH, len - SrtHeader.LENGTH);
        } catch (HandshakeFormatException e) {
            droppedMalformed++;
            return;
        }
        if (RejectReason.isRejection(hs.type)) {
            fail(RejectReason.fromWire(hs.type));
        } else if (state == State.INDUCTION && hs.type == Handshake.TYPE_INDUCTION) {
            if (hs.version != 5 || hs.extension != Handshake.SRT_MAGIC) {
                fail(RejectReason.VERSION);
                return;
            }
            cookie = hs.cookie;
            state = State.CONCLUSION;
            sendHandshake(nowNs);
        } else if (state == State.CONCLUSION && hs.type == Handshake.TYPE_CONCLUSION) {
            onConclusionResponse(hs, SrtHeader.timestamp(b, off), nowNs);
        }
    }

    private void onConclusionResponse(Handshake hs, int timestamp, long nowNs) {
        if (hs.srtCommand != Handshake.CMD_HSRSP) {
            fail(RejectReason.VERSION);
            return;
        }
        if (options.encrypted() && (hs.km == null || hs.km.length < 16)) {
            fail(hs.km == null ? RejectReason.UNSECURE : RejectReason.BADSECRET);
            return;
        }
        int latency = (hs.srtFlags & Handshake.FLAG_TSBPDSND) != 0
                ? Math.max(settings.latencyMs(), hs.senderDelayMs)
                : settings.latencyMs();
        int peerLatency = (hs.srtFlags & Handshake.FLAG_TSBPDRCV) != 0
                ? Math.max(settings.latencyMs(), hs.receiverDelayMs)
                : settings.latencyMs();
        connection = new SrtConnection(
                out,
                socketId,
                socketId,
                hs.socketId,
                remote,
                null,
                startNs,
                nowNs,
                nowNs - (timestamp & 0xFFFF_FFFFL) * 1000,
                initialSeq,
                latency,
                peerLatency,
                settings.bufferPackets(latency),
                settings.bufferPackets(peerLatency),
                null,
                keys,
                settings.idleTimeoutMs() * 1_000_000L);
        sessions.put(socketId, connection);
        state = State.CONNECTED;
        nextRetryNs = Long.MAX_VALUE;
        out.event(new SrtEvent.Connected(socketId, remote, null, peerLatency, keys == null ? 0 : keys.keyLength()));
    }

    private void fail(int code) {
        state = State.DONE;
        nextRetryNs = Long.MAX_VALUE;
        out.event(new SrtEvent.Rejected(socketId, remote, code, options.streamId()));
    }

    private void sendHandshake(long nowNs) {
        Handshake hs = new Handshake();
        hs.initialSeq = initialSeq;
        hs.mtu = SrtSettings.MTU;
        hs.flowWindow = settings.bufferPackets(settings.latencyMs());
        hs.socketId = socketId;
        hs.setPeerIp(remote);
        if (state == State.INDUCTION) {
            hs.version = 4;
            hs.extension = Handshake.UDT_DGRAM;
            hs.type = Handshake.TYPE_INDUCTION;
        } else {
            hs.version = 5;
            hs.encryption = options.encrypted() ? options.keyLength() / 8 : 0;
            hs.extension = Handshake.EXT_HSREQ
                    | (options.encrypted() ? Handshake.EXT_KMREQ : 0)
                    | (options.streamId() != null ? Handshake.EXT_CONFIG : 0);
            hs.type = Handshake.TYPE_CONCLUSION;
            hs.cookie = cookie;
            hs.srtCommand = Handshake.CMD_HSREQ;
            hs.srtVersion = SrtSettings.SRT_VERSION;
            hs.srtFlags = CALLER_FLAGS;
            hs.receiverDelayMs = settings.latencyMs();
            hs.senderDelayMs = settings.latencyMs();
            if (kmRequest != null) {
                hs.kmCommand = Handshake.CMD_KMREQ;
                hs.km = kmRequest;
            }
            hs.streamId = options.streamId();
        }
        int n = hs.encodePacket(scratch, (int) ((nowNs - startNs) / 1000), 0);
        out.send(scratch, 0, n, remote);
        nextRetryNs = nowNs + RETRY_NS;
    }

    @Override
    public void onTimeout(long nowNs) {
        if (state == State.INDUCTION || state == State.CONCLUSION) {
            if (nowNs >= deadlineNs) {
                fail(RejectReason.TIMEOUT);
            } else if (nowNs >= nextRetryNs) {
                sendHandshake(nowNs);
            }
            return;
        }
        super.onTimeout(nowNs);
        if (state == State.CONNECTED && connection.closed()) {
            state = State.DONE;
        }
    }

    @Override
    long handshakeDeadlineNs() {
        return state == State.INDUCTION || state == State.CONCLUSION
                ? Math.min(nextRetryNs, deadlineNs)
                : Long.MAX_VALUE;
    }

    public SrtStats stats() {
        return connection == null ? null : connection.stats();
    }
}
