package io.tern.server.metrics;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.testkit.TestTls;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A blocking TURN client for tests, over UDP or (with {@link #overTcp}) TCP: long-term auth with
 * REST credentials, one request at a time.
 */
public final class TurnClient implements AutoCloseable {
    private final DatagramSocket socket;
    private Socket tcp;
    private DataInputStream tcpIn;
    private final InetSocketAddress server;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[2048]);
    private final StunMessageWriter writer = new StunMessageWriter(new MessageIntegrity(2048), new Fingerprint(2048));
    private final byte[] username;
    private final byte[] realm;
    private final byte[] key;
    private byte[] nonce;

    public TurnClient(InetSocketAddress server, String username, String password) throws IOException {
        this(server, RelayFixture.REALM, username, password);
    }

    public TurnClient(InetSocketAddress server, String realm, String username, String password) throws IOException {
        this.socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        this.socket.setSoTimeout(5000);
        this.server = server;
        this.realm = realm.getBytes(StandardCharsets.UTF_8);
        this.username = username.getBytes(StandardCharsets.UTF_8);
        this.key =
                MessageIntegrity.longTermKeyMd5(this.username, this.realm, password.getBytes(StandardCharsets.UTF_8));
    }

    /** How long to wait for each answer over UDP (5 s unless set). */
    public TurnClient answerTimeoutMs(int ms) throws IOException {
        socket.setSoTimeout(ms);
        return this;
    }

    /** Talks over a TCP connection to the server's TCP listener instead of UDP. */
    public TurnClient overTcp(InetSocketAddress tcpServer) throws IOException {
        return overStream(new Socket(), tcpServer, 0);
    }

    /**
     * Talks over a TCP connection, or a TLS one when {@code tls} (trusting any certificate), with a
     * receive buffer of {@code receiveBufferBytes} (0 for the default) set before connecting, so
     * that it also bounds the window the client advertises.
     */
    public TurnClient overStream(InetSocketAddress streamServer, boolean tls, int receiveBufferBytes)
            throws IOException {
        Socket plain = new Socket();
        if (!tls) {
            return overStream(plain, streamServer, receiveBufferBytes);
        }
        if (receiveBufferBytes > 0) {
            plain.setReceiveBufferSize(receiveBufferBytes);
        }
        plain.connect(streamServer, 5000);
        javax.net.ssl.SSLSocket secure = (javax.net.ssl.SSLSocket)
                TestTls.trustAll().getSocketFactory().createSocket(plain, "localhost", streamServer.getPort(), true);
        secure.startHandshake();
        tcp = secure;
        tcp.setSoTimeout(5000);
        tcpIn = new DataInputStream(tcp.getInputStream());
        return this;
    }

    private TurnClient overStream(Socket socket, InetSocketAddress streamServer, int receiveBufferBytes)
            throws IOException {
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(streamServer, 5000);
        tcp = socket;
        tcp.setSoTimeout(5000);
        tcpIn = new DataInputStream(tcp.getInputStream());
        return this;
    }

    /** Binds {@code channel} to {@code peer} after a CreatePermission; throws unless both succeed. */
    public void bindChannel(int channel, TransportAddress peer) throws IOException {
        Response bound = request(io.tern.stun.message.StunMethod.CHANNEL_BIND, w -> {
            w.putInt(AttributeType.CHANNEL_NUMBER, channel << 16);
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer);
        });
        if (!bound.success()) {
            throw new IOException("ChannelBind failed: " + bound.errorCode());
        }
    }

    /** A response: its class, and its error code (0 for success). */
    public record Response(StunMessageDecoder message, int errorCode) {
        public boolean success() {
            return message.messageClass() == StunClass.SUCCESS_RESPONSE;
        }
    }

    /** Sends a request without credentials; the answer to an Allocate is the 401 challenge. */
    public Response unauthenticated(int method, Consumer<StunMessageWriter> attributes) throws IOException {
        Response response = send(method, attributes, false);
        if (response.errorCode() == 401) {
            nonce = new byte[response.message().valueLength(AttributeType.NONCE)];
            response.message().copyValue(AttributeType.NONCE, nonce);
        }
        return response;
    }

    /** The nonce this client signs with, or null before its first challenge. */
    public byte[] nonce() {
        return nonce;
    }

    /** Signs with {@code nonce} from now on: one another client (or another node) handed out. */
    public TurnClient nonce(byte[] nonce) {
        this.nonce = nonce.clone();
        return this;
    }

    /** Sends a signed request; fetches a nonce first if it has none. */
    public Response request(int method, Consumer<StunMessageWriter> attributes) throws IOException {
        if (nonce == null) {
            unauthenticated(method, attributes);
        }
        return send(method, attributes, true);
    }

    /** Allocates a UDP relay; returns the relayed address. */
    public TransportAddress allocate() throws IOException {
        Response response = request(
                io.tern.stun.message.StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
        if (!response.success()) {
            throw new IOException("Allocate failed: " + response.errorCode());
        }
        TransportAddress relayed = new TransportAddress();
        StunMessageDecoder m = response.message();
        AddressAttribute.decodeXor(
                m.buffer(),
                0,
                m.valueOffset(AttributeType.XOR_RELAYED_ADDRESS),
                m.valueLength(AttributeType.XOR_RELAYED_ADDRESS),
                relayed,
                new byte[16]);
        return relayed;
    }

    public void sendRaw(byte[] datagram) throws IOException {
        if (tcp != null) {
            tcp.getOutputStream().write(datagram);
            return;
        }
        socket.send(new DatagramPacket(datagram, datagram.length, server));
    }

    /** One datagram, or over TCP one framed STUN message or ChannelData message (with its padding). */
    public byte[] receiveRaw() throws IOException {
        if (tcp != null) {
            byte[] head = new byte[4];
            tcpIn.readFully(head);
            int length = ((head[2] & 0xff) << 8) | (head[3] & 0xff);
            int rest = (head[0] & 0xc0) == 0 ? 16 + length : (length + 3) & ~3;
            byte[] message = Arrays.copyOf(head, 4 + rest);
            tcpIn.readFully(message, 4, rest);
            return message;
        }
        DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
        socket.receive(in);
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    private Response send(int method, Consumer<StunMessageWriter> attributes, boolean signed) throws IOException {
        writer.start(
                out,
                0,
                StunClass.messageType(method, StunClass.REQUEST),
                ThreadLocalRandom.current().nextInt(),
                ThreadLocalRandom.current().nextLong());
        attributes.accept(writer);
        if (signed) {
            writer.putBytes(AttributeType.USERNAME, username);
            writer.putBytes(AttributeType.REALM, realm);
            writer.putBytes(AttributeType.NONCE, nonce);
            writer.putMessageIntegrity(key);
        }
        sendRaw(Arrays.copyOf(out.byteArray(), writer.length()));
        byte[] in = receiveRaw();
        StunMessageDecoder decoder = new StunMessageDecoder();
        if (decoder.decode(new UnsafeBuffer(in), 0, in.length) != StunMessageDecoder.OK) {
            throw new IOException("not a STUN response: " + in.length + " bytes");
        }
        int code = 0;
        if (decoder.has(AttributeType.ERROR_CODE)) {
            byte[] value = new byte[decoder.valueLength(AttributeType.ERROR_CODE)];
            decoder.copyValue(AttributeType.ERROR_CODE, value);
            code = (value[2] & 7) * 100 + (value[3] & 0xff);
        }
        return new Response(decoder, code);
    }

    @Override
    public void close() {
        socket.close();
        if (tcp != null) {
            try {
                tcp.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
