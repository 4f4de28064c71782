package io.tern.netty.relay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * SO_REUSEPORT lets a second process of the same user bind a port that is already serving, and the
 * kernel then splits the traffic between the two. Binding once without it first makes a busy port
 * fail start-up, as an operator expects, instead of silently sharing it.
 */
final class PortProbe {
    private PortProbe() {}

    static void requireFreeUdp(InetSocketAddress address) {
        if (address.getPort() == 0) {
            return;
        }
        try (DatagramSocket socket = new DatagramSocket(null)) {
            socket.bind(address);
        } catch (IOException e) {
            throw busy("UDP", address, e);
        }
    }

    static void requireFreeTcp(InetSocketAddress address) {
        if (address.getPort() == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
        } catch (IOException e) {
            throw busy("TCP", address, e);
        }
    }

    private static UncheckedIOException busy(String protocol, InetSocketAddress address, IOException cause) {
        BindException e = new BindException(protocol + " " + address + " is already in use: " + cause.getMessage());
        e.initCause(cause);
        return new UncheckedIOException(e);
    }
}
