package io.tern.server.interop;

import io.tern.server.config.CoturnOptions;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.relay.RelayServer;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Tern in-process on loopback, configured through coturn's option names as an operator would. */
public final class InteropRelay implements AutoCloseable {
    /** Which UDP path the in-process relays use, when set: {@code netty} or {@code ffm}. */
    public static final String UDP_IO_PROPERTY = "tern.test.udp-io";

    public final TurnServerConfig config;
    public final RelayServer server;

    private InteropRelay(TurnServerConfig config, RelayServer server) {
        this.config = config;
        this.server = server;
    }

    /** {@code options} are {@code name, value} pairs ("" for flags), as on coturn's command line. */
    public static InteropRelay start(String... options) throws Exception {
        TurnServerConfig config = config(options);
        return new InteropRelay(config, RelayServer.start(config));
    }

    /**
     * The configuration these {@code name, value} option pairs make, as the command line would.
     * The system property {@value #UDP_IO_PROPERTY} ({@code netty}, {@code ffm}) sets {@code
     * udp-io} where the options do not, so the interop suite runs on either UDP path.
     */
    public static TurnServerConfig config(String... options) {
        List<Occurrence> values = new ArrayList<>();
        String udpIo = System.getProperty(UDP_IO_PROPERTY);
        if (udpIo != null && !List.of(options).contains("udp-io")) {
            values.add(new Occurrence(CoturnOptions.UDP_IO, udpIo, ConfigSource.commandLine()));
        }
        for (int i = 0; i < options.length; i += 2) {
            Option<?> option = CoturnOptions.find(options[i]);
            if (option == null) {
                throw new IllegalArgumentException("unknown option " + options[i]);
            }
            values.add(new Occurrence(option, options[i + 1], ConfigSource.commandLine()));
        }
        return new TurnServerConfigAssembler(message -> {}).assemble(List.of(), values);
    }

    public int port() {
        return config.listeningPort();
    }

    /** A port free for both UDP and TCP on loopback right now. */
    public static int freePort() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket tcp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = tcp.getLocalPort();
                try (DatagramSocket udp = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
                    return port;
                } catch (IOException taken) {
                    // UDP side in use; try another.
                }
            }
        }
        throw new IOException("no free port on loopback");
    }

    @Override
    public void close() {
        server.close();
    }
}
