package io.tern.netty.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The kernel's per-socket drop counts, read back for this process's own sockets. */
class KernelUdpDropsTest {
    @Test
    void countsDatagramsASocketWithAFullBufferLost() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/udp")), "Linux /proc only");
        KernelUdpDrops drops = new KernelUdpDrops();
        long before = drops.total();
        try (DatagramSocket full = new DatagramSocket(null);
                DatagramSocket sender = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            full.setReceiveBufferSize(4096);
            full.bind(new InetSocketAddress("127.0.0.1", 0));
            byte[] datagram = new byte[1200];
            for (int i = 0; i < 500; i++) {
                sender.send(new DatagramPacket(datagram, datagram.length, full.getLocalSocketAddress()));
            }
            long counted = drops.total() - before;
            assertThat(counted).isGreaterThan(400);
            // Counted once: a second read adds only what was dropped since.
            assertThat(drops.total() - before).isEqualTo(counted);
        }
        // Gone with its socket, and not taken back.
        assertThat(drops.total()).isGreaterThanOrEqualTo(before + 400);
    }
}
