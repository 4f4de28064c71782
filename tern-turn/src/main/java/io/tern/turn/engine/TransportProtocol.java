package io.tern.turn.engine;

/** The client-facing transport of a listener; peers are always reached over UDP. */
public enum TransportProtocol {
    UDP,
    TCP,
    TLS
}
