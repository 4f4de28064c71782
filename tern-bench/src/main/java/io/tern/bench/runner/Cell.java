package io.tern.bench.runner;

import io.tern.bench.load.Transport;

/** One cell of the matrix; every server is measured in every cell it supports. */
public record Cell(Transport transport, int clients, int payloadBytes, int relayThreads, int loadWorkers, int window) {
    public String label() {
        return transport.label() + " c=" + clients + " p=" + payloadBytes + " rt=" + relayThreads;
    }
}
