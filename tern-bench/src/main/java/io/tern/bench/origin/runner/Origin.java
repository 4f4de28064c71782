package io.tern.bench.origin.runner;

import io.tern.bench.harness.server.ServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** An origin under test: how to start it fresh for one run, and where its viewers start. */
abstract class Origin {
    /** The stream every run publishes: rtmp://127.0.0.1:PORT/live/stream. */
    static final String APP = "live";

    static final String STREAM = "stream";

    /** Ports and directories of one run. */
    record Ports(int rtmpPort, int httpPort, Path runDir) {}

    abstract String name();

    abstract String version();

    /** Starts the server and returns once its HTTP port accepts connections. */
    abstract ServerProcess start(Ports ports, long readyTimeoutMs) throws IOException, InterruptedException;

    /** The playlist viewers open. */
    abstract String entryPath();

    /** Removes what the run left behind (HLS files), after the server stopped. */
    void cleanUp(Ports ports) {}

    /** The command line, written to the run directory. */
    abstract List<String> command(Ports ports) throws IOException;

    String publishUrl(Ports ports) {
        return "rtmp://127.0.0.1:" + ports.rtmpPort() + "/" + APP + "/" + STREAM;
    }
}
