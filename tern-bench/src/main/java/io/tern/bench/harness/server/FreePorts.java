package io.tern.bench.harness.server;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports for a server under test on 127.0.0.1. */
public final class FreePorts {
    private FreePorts() {}

    /** A port free for both UDP and TCP on 127.0.0.1, from a small range (bounded attempts). */
    public static int between(int from, int to) throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = from + (int) (Math.random() * (to - from + 1));
            try (ServerSocket t = new ServerSocket(port, 1, lo);
                    DatagramSocket u = new DatagramSocket(port, lo)) {
                t.setReuseAddress(true);
                return port;
            } catch (IOException busy) {
                // try another
            }
        }
        throw new IOException("no free port in " + from + "-" + to);
    }

    /** Any free TCP port on 127.0.0.1, chosen by the kernel. */
    public static int any() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
