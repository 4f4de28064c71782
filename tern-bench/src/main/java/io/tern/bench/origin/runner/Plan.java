package io.tern.bench.origin.runner;

import io.tern.bench.harness.matrix.Matrix;
import io.tern.bench.origin.viewer.ViewerMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The order of the origin matrix's runs ({@link Matrix#alternating}): cell by cell (viewer counts in the order given), repeat by
 * repeat, and within each repeat every (server, mode) pair in a fixed order, so the servers
 * alternate (Tern, nginx, Tern, nginx, ...) and drift over the matrix hits both. LL runs only
 * against servers that serve low-latency HLS (not nginx-rtmp).
 */
final class Plan {
    private Plan() {}

    static List<RunSpec> runs(List<String> servers, List<ViewerMode> modes, List<Integer> viewers, int repeats) {
        List<Entrant> entrants = new ArrayList<>();
        for (ViewerMode mode : modes) {
            for (String server : servers) {
                entrants.add(new Entrant(mode, server));
            }
        }
        return Matrix.alternating(
                        viewers, repeats, entrants, (v, e) -> e.mode() != ViewerMode.LL || servesLowLatency(e.server()))
                .stream()
                .map(run -> new RunSpec(run.entrant().server(), run.entrant().mode(), run.cell(), run.repeat()))
                .toList();
    }

    /** A server in one viewer mode: the matrix's entrant. */
    private record Entrant(ViewerMode mode, String server) {}

    static boolean servesLowLatency(String server) {
        return !server.equals("nginx");
    }
}
