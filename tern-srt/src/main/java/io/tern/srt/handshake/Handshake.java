package io.tern.srt.handshake;

import io.tern.srt.packet.Bytes;
import io.tern.srt.packet.SrtHeader;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A handshake packet's body (draft-sharabayko-srt §3.2.1) and its HSv5 extensions: HSREQ/HSRSP,
 * KMREQ/KMRSP and the stream id. A mutable model: the handshake path is not the hot path, and one
 * decoded value is easier to check than offsets.
 *
 * <pre>
 * version | encryption (16) extension field (16) | initial seq | MTU | flow window | type |
 * socket id | SYN cookie | peer IP (128) | extensions: type (16) length in words (16) contents
 * </pre>
 */
public final class Handshake {
    public static final int CIF_BYTES = 48;
    public static final int TYPE_WAVEAHAND = 0;
    public static final int TYPE_INDUCTION = 1;
    public static final int TYPE_CONCLUSION = -1;
    public static final int TYPE_AGREEMENT = -2;

    /** The extension field of a version 5 induction answer: "SRT" magic. */
    public static final int SRT_MAGIC = 0x4A17;
    /** The socket type a version 4 induction names: UDT_DGRAM. */
    public static final int UDT_DGRAM = 2;

    /** Extension field flags of a conclusion. */
    public static final int EXT_HSREQ = 1;

    public static final int EXT_KMREQ = 2;
    public static final int EXT_CONFIG = 4;

    /** Extension block types. */
    public static final int CMD_HSREQ = 1;

    public static final int CMD_HSRSP = 2;
    public static final int CMD_KMREQ = 3;
    public static final int CMD_KMRSP = 4;
    public static final int CMD_SID = 5;
    public static final int CMD_CONGESTION = 6;
    public static final int CMD_FILTER = 7;
    public static final int CMD_GROUP = 8;

    /** SRT flags of HSREQ/HSRSP (§3.2.1.1.1). */
    public static final int FLAG_TSBPDSND = 0x01;

    public static final int FLAG_TSBPDRCV = 0x02;
    public static final int FLAG_CRYPT = 0x04;
    public static final int FLAG_TLPKTDROP = 0x08;
    public static final int FLAG_PERIODICNAK = 0x10;
    public static final int FLAG_REXMITFLG = 0x20;
    public static final int FLAG_STREAM = 0x40;
    public static final int FLAG_PACKET_FILTER = 0x80;

    private static final int MAX_EXTENSIONS = 16;

    public int version;
    public int encryption;
    public int extension;
    public int initialSeq;
    public int mtu;
    public int flowWindow;
    public int type;
    public int socketId;
    public int cookie;
    public final byte[] peerIp = new byte[16];

    /** HSREQ or HSRSP: which one (0 when absent), the SRT version, flags and the two delays. */
    public int srtCommand;

    public int srtVersion;
    public int srtFlags;
    public int receiverDelayMs;
    public int senderDelayMs;

    /** KMREQ or KMRSP contents (null when absent). */
    public int kmCommand;

    public byte[] km;
    public String streamId;
    public String congestion;
    public boolean hasFilter;
    public boolean hasGroup;

    /** Parses the body after the 16-byte header; throws on any inconsistency. */
    public static Handshake parse(byte[] b, int off, int len) throws HandshakeFormatException {
        if (len < CIF_BYTES) {
            throw new HandshakeFormatException("handshake of " + len + " bytes");
        }
        Handshake h = new Handshake();
        h.version = Bytes.i32(b, off);
        h.encryption = Bytes.u16(b, off + 4);
        h.extension = Bytes.u16(b, off + 6);
        h.initialSeq = Bytes.i32(b, off + 8);
        h.mtu = Bytes.i32(b, off + 12);
        h.flowWindow = Bytes.i32(b, off + 16);
        h.type = Bytes.i32(b, off + 20);
        h.socketId = Bytes.i32(b, off + 24);
        h.cookie = Bytes.i32(b, off + 28);
        System.arraycopy(b, off + 32, h.peerIp, 0, 16);
        if (h.version >= 5 && h.type == TYPE_CONCLUSION) {
            h.parseExtensions(b, off + CIF_BYTES, len - CIF_BYTES);
        }
        return h;
    }

    private void parseExtensions(byte[] b, int off, int len) throws HandshakeFormatException {
        int end = off + len;
        int i = off;
        int count = 0;
        while (end - i >= 4) {
            if (++count > MAX_EXTENSIONS) {
                throw new HandshakeFormatException("too many handshake extensions");
            }
            int cmd = Bytes.u16(b, i);
            int words = Bytes.u16(b, i + 2);
            int body = i + 4;
            if (words * 4 > end - body) {
                throw new HandshakeFormatException("extension " + cmd + " of " + words + " words overruns the packet");
            }
            int n = words * 4;
            switch (cmd) {
                case CMD_HSREQ, CMD_HSRSP -> {
                    if (n < 12) {
                        throw new HandshakeFormatException("HSREQ of " + n + " bytes");
                    }
                    srtCommand = cmd;
                    srtVersion = Bytes.i32(b, body);
                    srtFlags = Bytes.i32(b, body + 4);
                    receiverDelayMs = Bytes.u16(b, body + 8);
                    senderDelayMs = Bytes.u16(b, body + 10);
                }
                case CMD_KMREQ, CMD_KMRSP -> {
                    kmCommand = cmd;
                    km = Arrays.copyOfRange(b, body, body + n);
                }
                case CMD_SID -> {
                    if (n > StreamId.MAX_LENGTH) {
                        throw new HandshakeFormatException("stream id of " + n + " bytes");
                    }
                    streamId = wordString(b, body, n);
                }
                case CMD_CONGESTION -> congestion = wordString(b, body, n);
                case CMD_FILTER -> hasFilter = true;
                case CMD_GROUP -> hasGroup = true;
                default -> {
                    // Unknown extensions are skipped, as libsrt does.
                }
            }
            i = body + n;
        }
    }

    /**
     * libsrt copies strings into 32-bit words in host order and sends the words in network order,
     * so on the wire every 4-byte group of the string is reversed; the tail is padded with zeros.
     */
    static String wordString(byte[] b, int off, int n) {
        byte[] s = new byte[n];
        for (int w = 0; w < n; w += 4) {
            s[w] = b[off + w + 3];
            s[w + 1] = b[off + w + 2];
            s[w + 2] = b[off + w + 1];
            s[w + 3] = b[off + w];
        }
        int len = n;
        while (len > 0 && s[len - 1] == 0) {
            len--;
        }
        return new String(s, 0, len, StandardCharsets.UTF_8);
    }

    static int putWordString(byte[] b, int off, String value) {
        byte[] s = value.getBytes(StandardCharsets.UTF_8);
        int n = (s.length + 3) & ~3;
        for (int w = 0; w < n; w += 4) {
            for (int k = 0; k < 4; k++) {
                int src = w + 3 - k;
                b[off + w + k] = src < s.length ? s[src] : 0;
            }
        }
        return n;
    }

    /** Writes the body (no header); returns its length. */
    public int encode(byte[] b, int off) {
        Bytes.put32(b, off, version);
        Bytes.put16(b, off + 4, encryption);
        Bytes.put16(b, off + 6, extension);
        Bytes.put32(b, off + 8, initialSeq);
        Bytes.put32(b, off + 12, mtu);
        Bytes.put32(b, off + 16, flowWindow);
        Bytes.put32(b, off + 20, type);
        Bytes.put32(b, off + 24, socketId);
        Bytes.put32(b, off + 28, cookie);
        System.arraycopy(peerIp, 0, b, off + 32, 16);
        int i = off + CIF_BYTES;
        if (srtCommand != 0) {
            Bytes.put16(b, i, srtCommand);
            Bytes.put16(b, i + 2, 3);
            Bytes.put32(b, i + 4, srtVersion);
            Bytes.put32(b, i + 8, srtFlags);
            Bytes.put16(b, i + 12, receiverDelayMs);
            Bytes.put16(b, i + 14, senderDelayMs);
            i += 16;
        }
        if (km != null) {
            Bytes.put16(b, i, kmCommand);
            Bytes.put16(b, i + 2, (km.length + 3) / 4);
            Arrays.fill(b, i + 4, i + 4 + ((km.length + 3) & ~3), (byte) 0);
            System.arraycopy(km, 0, b, i + 4, km.length);
            i += 4 + ((km.length + 3) & ~3);
        }
        if (streamId != null) {
            Bytes.put16(b, i, CMD_SID);
            int n = putWordString(b, i + 4, streamId);
            Bytes.put16(b, i + 2, n / 4);
            i += 4 + n;
        }
        if (congestion != null) {
            Bytes.put16(b, i, CMD_CONGESTION);
            int n = putWordString(b, i + 4, congestion);
            Bytes.put16(b, i + 2, n / 4);
            i += 4 + n;
        }
        return i - off;
    }

    /** Header plus body into {@code b} at 0; returns the datagram length. */
    public int encodePacket(byte[] b, int timestamp, int destSocket) {
        SrtHeader.writeControl(b, 0, io.tern.srt.packet.ControlType.HANDSHAKE, 0, 0, timestamp, destSocket);
        return SrtHeader.LENGTH + encode(b, SrtHeader.LENGTH);
    }

    /**
     * Writes {@code addr} as libsrt does: IPv4 as one 32-bit word in host order, which on the wire
     * (little-endian hosts, every libsrt build that matters) puts the four bytes reversed.
     */
    public void setPeerIp(InetSocketAddress addr) {
        Arrays.fill(peerIp, (byte) 0);
        InetAddress a = addr.getAddress();
        byte[] raw = a.getAddress();
        if (a instanceof Inet4Address) {
            for (int k = 0; k < 4; k++) {
                peerIp[k] = raw[3 - k];
            }
        } else {
            for (int w = 0; w < 16; w += 4) {
                for (int k = 0; k < 4; k++) {
                    peerIp[w + k] = raw[w + 3 - k];
                }
            }
        }
    }
}
