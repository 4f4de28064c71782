package io.tern.srt;

import io.tern.srt.crypto.KeyMaterial;
import io.tern.srt.crypto.ReceiveKeys;
import io.tern.srt.crypto.SrtCryptoException;
import io.tern.srt.handshake.Handshake;
import io.tern.srt.handshake.HandshakeFormatException;
import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import io.tern.srt.handshake.SynCookie;
import io.tern.srt.packet.ControlType;
import io.tern.srt.packet.SrtHeader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * An SRT listener in live mode: many callers on one socket, demultiplexed by destination socket id
 * once connected and by address during the handshake.
 *
 * <p>Handshake (HSv5, as libsrt 1.5 answers it): an induction gets a version 5 answer with the SRT
 * magic and a SYN cookie, and leaves no state. A conclusion with a valid cookie is checked in
 * libsrt's order (version, HSREQ, congestion/filter/group options, limits, the owner's
 * authorisation, then encryption) and either creates the session and answers with HSRSP/KMRSP, or
 * is answered with the rejection code.
 *
 * <p>The owner's authorisation is an output and an input, as RTMP's publish is: a conclusion that
 * passes the checks queues {@link SrtEvent.PublishRequested} and is left unanswered until the owner
 * calls {@link #acceptPublish} (with the stream's passphrase) or {@link #rejectPublish}. The
 * caller repeats its conclusion meanwhile (libsrt every 250 ms until its connect timeout); those
 * repeats are not asked again. A request whose caller has fallen silent for {@link
 * #REQUEST_SILENCE_NS} is forgotten, and a late answer to it is ignored.
 */
public final class SrtListener extends SrtEndpoint {
    private static final int SERVER_FLAGS = Handshake.FLAG_TSBPDSND
            | Handshake.FLAG_TSBPDRCV
            | Handshake.FLAG_CRYPT
            | Handshake.FLAG_TLPKTDROP
            | Handshake.FLAG_PERIODICNAK
            | Handshake.FLAG_REXMITFLG;

    /** A request whose caller repeated nothing for this long has given up: libsrt repeats every 250 ms. */
    public static final long REQUEST_SILENCE_NS = 3_000_000_000L;
    /** Publish requests awaiting the owner at once; past it new callers are refused as overload. */
    public static final int MAX_PENDING_REQUESTS = 1024;

    private final SynCookie cookies;
    private final Map<InetSocketAddress, SrtConnection> byPeer = new HashMap<>();
    private final Map<InetSocketAddress, PublishRequest> requestsByPeer = new HashMap<>();
    private final Map<Long, PublishRequest> requests = new HashMap<>();
    private long nextRequestId = 1;
    private final Map<InetAddress, Integer> perIp = new HashMap<>();
    private final byte[] scratch = new byte[Outbox.DATAGRAM_BYTES];

    long inductions;
    long conclusions;
    long badCookies;
    long rejections;
    long pendingDecisions;
    long abandonedRequests;

    /** A conclusion waiting for the owner's answer; the latest repeat of it is kept. */
    private static final class PublishRequest {
        final long id;
        final InetSocketAddress peer;
        final StreamId streamId;
        Handshake handshake;
        /** The caller's time zero on this side's clock, from the latest repeat's timestamp. */
        long peerTimeZeroNs;

        long lastHeardNs;

        PublishRequest(long id, InetSocketAddress peer, StreamId streamId) {
            this.id = id;
            this.peer = peer;
            this.streamId = streamId;
        }

        void heard(Handshake hs, int timestamp, long nowNs) {
            handshake = hs;
            peerTimeZeroNs = nowNs - (timestamp & 0xFFFF_FFFFL) * 1000;
            lastHeardNs = nowNs;
        }
    }

    public SrtListener(SrtSettings settings, RandomGenerator random) {
        super(settings, random, 8192, 8192);
        this.cookies = new SynCookie(random);
    }

    /** One datagram from {@code remote}. Never throws on any content. */
    public void onDatagram(byte[] b, int off, int len, InetSocketAddress remote, long nowNs) {
        if (len > SrtSettings.MTU) {
            droppedOversized++;
            return;
        }
        if (len < SrtHeader.LENGTH) {
            droppedMalformed++;
            return;
        }
        int dest = SrtHeader.destSocket(b, off);
        if (dest != 0) {
            SrtConnection c = sessions.get(dest);
            if (c == null || !c.peer.equals(remote)) {
                droppedUnknownSocket++;
                return;
            }
            c.onPacket(b, off, len, nowNs);
            if (c.closed()) {
                sessions.remove(dest);
                removed(c);
            }
            return;
        }
        if (!SrtHeader.isControl(b, off) || SrtHeader.controlType(b, off) != ControlType.HANDSHAKE) {
            droppedUnknownSocket++;
            return;
        }
        Handshake hs;
        try {
            hs = Handshake.parse(b, off + SrtHeader.LENGTH, len - SrtHeader.LENGTH);
        } catch (HandshakeFormatException e) {
            droppedMalformed++;
            return;
        }
        if (hs.type == Handshake.TYPE_INDUCTION) {
            answerInduction(hs, remote, nowNs);
        } else if (hs.type == Handshake.TYPE_CONCLUSION) {
            onConclusion(hs, SrtHeader.timestamp(b, off), remote, nowNs);
        } else {
            droppedMalformed++;
        }
    }

    private void answerInduction(Handshake req, InetSocketAddress remote, long nowNs) {
        inductions++;
        Handshake res = new Handshake();
        res.version = 5;
        res.encryption = 0;
        res.extension = Handshake.SRT_MAGIC;
        res.initialSeq = req.initialSeq;
        res.mtu = Math.min(req.mtu > 0 ? req.mtu : SrtSettings.MTU, SrtSettings.MTU);
        res.flowWindow = settings.maxBufferPackets();
        res.type = Handshake.TYPE_INDUCTION;
        res.socketId = req.socketId;
        res.cookie = cookies.cookie(remote, nowNs);
        res.setPeerIp(remote);
        int n = res.encodePacket(scratch, 0, req.socketId);
        out.send(scratch, 0, n, remote);
    }

    private void onConclusion(Handshake hs, int timestamp, InetSocketAddress remote, long nowNs) {
        if (!cookies.verify(remote, hs.cookie, nowNs)) {
            badCookies++;
            return;
        }
        conclusions++;
        SrtConnection existing = byPeer.get(remote);
        if (existing != null) {
            if (existing.peerSocket == hs.socketId && existing.conclusionResponse != null) {
                out.send(existing.conclusionResponse, 0, existing.conclusionResponse.length, remote);
            }
            return;
        }
        PublishRequest asked = requestsByPeer.get(remote);
        if (asked != null) {
            if (asked.handshake.socketId == hs.socketId) {
                // The caller repeats while the owner decides: keep the latest, answer later.
                asked.heard(hs, timestamp, nowNs);
                pendingDecisions++;
                return;
            }
            forget(asked); // a new socket from the same address: the old one gave up
        }
        String rawSid = hs.streamId;
        int code = check(hs, remote);
        if (code >= 0) {
            reject(hs, remote, code, rawSid);
            return;
        }
        StreamId sid = StreamId.parse(rawSid);
        if (sid == null) {
            reject(hs, remote, RejectReason.X_BAD_REQUEST, rawSid);
            return;
        }
        if (requests.size() >= MAX_PENDING_REQUESTS) {
            reject(hs, remote, RejectReason.X_OVERLOAD, rawSid);
            return;
        }
        PublishRequest request = new PublishRequest(nextRequestId++, remote, sid);
        request.heard(hs, timestamp, nowNs);
        requests.put(request.id, request);
        requestsByPeer.put(remote, request);
        pendingDecisions++;
        out.event(new SrtEvent.PublishRequested(request.id, remote, sid));
    }

    /**
     * The owner's yes to {@link SrtEvent.PublishRequested} {@code requestId}: the stream's
     * passphrase (null or empty: not encrypted, and a caller that encrypts is refused as libsrt
     * refuses it). The caller is answered now, with the session or a rejection (wrong passphrase,
     * no room left). False when the request is gone: answered before, or its caller gave up.
     */
    public boolean acceptPublish(long requestId, String passphrase, long nowNs) {
        PublishRequest request = requests.get(requestId);
        if (request == null) {
            return false;
        }
        forget(request);
        Handshake hs = request.handshake;
        InetSocketAddress remote = request.peer;
        String rawSid = hs.streamId;
        int code = check(hs, remote);
        if (code >= 0) {
            reject(hs, remote, code, rawSid);
            return true;
        }
        ReceiveKeys keys = null;
        if (passphrase != null && !passphrase.isEmpty()) {
            if (hs.km == null || hs.kmCommand != Handshake.CMD_KMREQ) {
                reject(hs, remote, RejectReason.UNSECURE, rawSid);
                return true;
            }
            keys = new ReceiveKeys(passphrase);
            try {
                keys.install(KeyMaterial.parse(hs.km, 0, hs.km.length));
            } catch (SrtCryptoException e) {
                reject(hs, remote, e.badSecret() ? RejectReason.BADSECRET : RejectReason.ROGUE, rawSid);
                return true;
            }
        } else if (hs.km != null) {
            reject(hs, remote, RejectReason.UNSECURE, rawSid);
            return true;
        }
        accept(hs, request.peerTimeZeroNs, remote, request.streamId, keys, nowNs);
        return true;
    }

    /**
     * The owner's no to {@link SrtEvent.PublishRequested} {@code requestId}, with a libsrt code
     * ({@link RejectReason}) the caller is told now. False when the request is gone.
     */
    public boolean rejectPublish(long requestId, int code, long nowNs) {
        PublishRequest request = requests.get(requestId);
        if (request == null) {
            return false;
        }
        forget(request);
        reject(request.handshake, request.peer, code, request.handshake.streamId);
        return true;
    }

    /** Answers {@code requestId} as a pure lookup decides it. */
    public boolean answerPublish(long requestId, StreamAuthorizer.Decision decision, long nowNs) {
        return decision.accepted()
                ? acceptPublish(requestId, decision.passphrase(), nowNs)
                : rejectPublish(requestId, decision.rejectCode(), nowNs);
    }

    private void forget(PublishRequest request) {
        requests.remove(request.id);
        requestsByPeer.remove(request.peer, request);
    }

    @Override
    public void onTimeout(long nowNs) {
        super.onTimeout(nowNs);
        if (requests.isEmpty()) {
            return;
        }
        for (var it = requests.values().iterator(); it.hasNext(); ) {
            PublishRequest request = it.next();
            if (nowNs - request.lastHeardNs >= REQUEST_SILENCE_NS) {
                it.remove();
                requestsByPeer.remove(request.peer, request);
                abandonedRequests++;
            }
        }
    }

    @Override
    long handshakeDeadlineNs() {
        long deadlineNs = Long.MAX_VALUE;
        for (PublishRequest request : requests.values()) {
            deadlineNs = Math.min(deadlineNs, request.lastHeardNs + REQUEST_SILENCE_NS);
        }
        return deadlineNs;
    }

    /** The checks before authorisation; -1 when all pass, else the rejection code. */
    private int check(Handshake hs, InetSocketAddress remote) {
        if (hs.version < 5 || hs.srtCommand != Handshake.CMD_HSREQ) {
            return RejectReason.VERSION;
        }
        if (hs.srtVersion < settings.minPeerVersion()) {
            return RejectReason.VERSION;
        }
        if ((hs.srtFlags & Handshake.FLAG_STREAM) != 0) {
            return RejectReason.MESSAGEAPI;
        }
        if (hs.congestion != null && !hs.congestion.equals("live")) {
            return RejectReason.CONGESTION;
        }
        if (hs.hasFilter) {
            return RejectReason.FILTER;
        }
        if (hs.hasGroup) {
            return RejectReason.GROUP;
        }
        if (sessions.size() >= settings.maxSessions()
                || perIp.getOrDefault(remote.getAddress(), 0) >= settings.maxSessionsPerIp()) {
            return RejectReason.RESOURCE;
        }
        return -1;
    }

    private void reject(Handshake req, InetSocketAddress remote, int code, String sid) {
        rejections++;
        Handshake res = new Handshake();
        res.version = 5;
        res.initialSeq = req.initialSeq;
        res.mtu = req.mtu;
        res.flowWindow = req.flowWindow;
        res.type = RejectReason.toWire(code);
        res.socketId = 0;
        res.cookie = req.cookie;
        res.setPeerIp(remote);
        int n = res.encodePacket(scratch, 0, req.socketId);
        out.send(scratch, 0, n, remote);
        out.event(new SrtEvent.Rejected(0, remote, code, sid));
    }

    private void accept(
            Handshake hs, long peerTimeZeroNs, InetSocketAddress remote, StreamId sid, ReceiveKeys keys, long nowNs) {
        boolean peerSends = (hs.srtFlags & Handshake.FLAG_TSBPDSND) != 0;
        boolean peerReceives = (hs.srtFlags & Handshake.FLAG_TSBPDRCV) != 0;
        int latency = peerSends ? Math.max(settings.latencyMs(), hs.senderDelayMs) : settings.latencyMs();
        int peerLatency = peerReceives ? Math.max(settings.latencyMs(), hs.receiverDelayMs) : settings.latencyMs();
        int localSocket = newSocketId();
        int capacity = settings.bufferPackets(latency);
        SrtConnection c = new SrtConnection(
                out,
                localSocket,
                localSocket,
                hs.socketId,
                remote,
                sid,
                nowNs,
                nowNs,
                peerTimeZeroNs,
                hs.initialSeq,
                latency,
                peerLatency,
                capacity,
                settings.bufferPackets(peerLatency),
                keys,
                null,
                settings.idleTimeoutMs() * 1_000_000L);

        Handshake res = new Handshake();
        res.version = 5;
        res.encryption = 0;
        res.extension = Handshake.EXT_HSREQ | (hs.km != null ? Handshake.EXT_KMREQ : 0);
        res.initialSeq = hs.initialSeq;
        res.mtu = Math.min(hs.mtu, SrtSettings.MTU);
        res.flowWindow = capacity;
        res.type = Handshake.TYPE_CONCLUSION;
        res.socketId = localSocket;
        res.cookie = hs.cookie;
        res.setPeerIp(remote);
        res.srtCommand = Handshake.CMD_HSRSP;
        res.srtVersion = SrtSettings.SRT_VERSION;
        res.srtFlags = SERVER_FLAGS;
        res.receiverDelayMs = latency;
        res.senderDelayMs = peerLatency;
        if (hs.km != null) {
            // libsrt 1.5.1 answers a KMREQ it could unwrap with the same keying material.
            res.kmCommand = Handshake.CMD_KMRSP;
            res.km = hs.km;
        }
        int n = res.encodePacket(scratch, 0, hs.socketId);
        byte[] response = java.util.Arrays.copyOf(scratch, n);
        c.conclusionResponse = response;
        out.send(response, 0, n, remote);

        sessions.put(localSocket, c);
        byPeer.put(remote, c);
        perIp.merge(remote.getAddress(), 1, Integer::sum);
        out.event(new SrtEvent.Connected(localSocket, remote, sid, latency, keys == null ? 0 : keys.keyLength()));
    }

    @Override
    void removed(SrtConnection c) {
        byPeer.remove(c.peer, c);
        perIp.computeIfPresent(c.peer.getAddress(), (k, v) -> v <= 1 ? null : v - 1);
    }

    /**
     * Handshake state the listener holds for callers not yet connected: only the publish requests
     * awaiting the owner (an induction or a refused conclusion leaves none).
     */
    public int pendingHandshakes() {
        return requests.size();
    }

    public long inductions() {
        return inductions;
    }

    public long badCookies() {
        return badCookies;
    }

    public long rejections() {
        return rejections;
    }

    /** Conclusions left unanswered because the owner had not decided yet, the first of each included. */
    public long pendingDecisions() {
        return pendingDecisions;
    }

    /** Publish requests forgotten because their caller fell silent before the owner answered. */
    public long abandonedRequests() {
        return abandonedRequests;
    }
}
