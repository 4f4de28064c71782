package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/**
 * Proves the ffmpeg fixture starts a real publisher: over RTMP it opens with the handshake's C0
 * (version 3), over SRT with a control packet (the caller's handshake); closing the fixture ends it.
 */
class FfmpegPublisherTest {
    @Test
    void publishesOverRtmp() throws Exception {
        FfmpegPublisher.require();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(20_000);
            String url = "rtmp://127.0.0.1:" + listener.getLocalPort() + "/live/cam1?token=t";
            try (FfmpegPublisher publisher = FfmpegPublisher.rtmp(url, 0);
                    Socket socket = listener.accept()) {
                socket.setSoTimeout(20_000);
                InputStream in = socket.getInputStream();
                assertThat(in.read())
                        .as("RTMP C0: version 3; %s", publisher.log())
                        .isEqualTo(3);
                assertThat(publisher.isAlive()).isTrue();
                publisher.close();
                assertThat(publisher.isAlive()).isFalse();
            }
        }
    }

    @Test
    void publishesOverSrt() throws Exception {
        FfmpegPublisher.require();
        try (DatagramSocket listener = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(20_000);
            String url = "srt://127.0.0.1:" + listener.getLocalPort() + "?streamid=publish:live/cam1&mode=caller";
            try (FfmpegPublisher publisher = FfmpegPublisher.srt(url, 0)) {
                DatagramPacket packet = new DatagramPacket(new byte[1500], 1500);
                listener.receive(packet);
                byte[] data = packet.getData();
                assertThat(packet.getLength()).isGreaterThanOrEqualTo(16);
                assertThat(data[0] & 0x80)
                        .as("an SRT control packet; %s", publisher.log())
                        .isEqualTo(0x80);
                assertThat(((data[0] & 0x7F) << 8) | (data[1] & 0xFF))
                        .as("control type: handshake")
                        .isZero();
            }
        }
    }

    @Test
    void theCommandIsTheIssuesTestStream() {
        String command = String.join(" ", FfmpegPublisher.command("rtmp://h/live/x", "flv", 5));
        assertThat(command)
                .contains("testsrc2=size=1280x720:rate=30")
                .contains("sine=frequency=1000:sample_rate=48000")
                .contains("-c:v libx264")
                .contains("-g 30 -keyint_min 30 -sc_threshold 0")
                .contains("-c:a aac")
                .contains("-t 5")
                .endsWith("-f flv rtmp://h/live/x");
    }
}
