package io.tern.bench.origin.runner;

import io.tern.bench.origin.viewer.ViewerMode;

/** One planned run of the matrix: a server, a viewer mode, a viewer count and a repeat. */
record RunSpec(String server, ViewerMode mode, int viewers, int repeat) {
    String label() {
        return server + " " + mode.label() + " v=" + viewers + " rep " + repeat;
    }
}
