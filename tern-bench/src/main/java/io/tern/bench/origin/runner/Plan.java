package io.tern.bench.origin.runner;

import io.tern.bench.origin.viewer.ViewerMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The order of a matrix's runs: cell by cell (viewer counts in the order given), repeat by
 * repeat, and within each repeat every (server, mode) pair in a fixed order, so the servers
 * alternate (Tern, nginx, Tern, nginx, ...) and drift over the matrix hits both. LL runs only
 * against servers that serve low-latency HLS (not nginx-rtmp).
 */
final class Plan {
    private Plan() {}

    static List<RunSpec> runs(List<String> servers, List<ViewerMode> modes, List<Integer> viewers, int repeats) {
        List<RunSpec> out = new ArrayList<>();
        for (int v : viewers) {
            for (int rep = 1; rep <= repeats; rep++) {
                for (ViewerMode mode : modes) {
                    for (String server : servers) {
                        if (mode == ViewerMode.LL && !servesLowLatency(server)) {
                            continue;
                        }
                        out.add(new RunSpec(server, mode, v, rep));
                    }
                }
            }
        }
        return out;
    }

    static boolean servesLowLatency(String server) {
        return !server.equals("nginx");
    }
}
