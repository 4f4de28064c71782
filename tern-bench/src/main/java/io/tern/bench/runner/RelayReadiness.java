package io.tern.bench.runner;

import io.tern.bench.client.Stun;
import io.tern.bench.client.StunMessage;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.load.Transport;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.List;

/** A relay is ready when it answers a STUN Binding over UDP, or accepts a connection on a stream transport. */
final class RelayReadiness {
    private RelayReadiness() {}

    static ServerProcess start(
            List<String> command, Path workDir, Path log, Transport transport, int port, long readyTimeoutMs)
            throws IOException, InterruptedException {
        return ServerProcess.start(
                command,
                workDir,
                log,
                () -> ready(transport, port),
                transport.label() + " port " + port,
                readyTimeoutMs);
    }

    /** STUN Binding over UDP, or a TCP connect for stream transports. */
    static boolean ready(Transport transport, int port) {
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
        if (transport.stream()) {
            return ServerProcess.accepts(port);
        }
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            s.setSoTimeout(200);
            StunMessage req = StunMessage.request(Stun.METHOD_BINDING);
            byte[] bytes = req.encode();
            s.send(new DatagramPacket(bytes, bytes.length, server));
            byte[] buf = new byte[1500];
            DatagramPacket resp = new DatagramPacket(buf, buf.length);
            s.receive(resp);
            StunMessage m = StunMessage.decode(buf, 0, resp.getLength());
            return m.sameTransaction(req.transactionId());
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
