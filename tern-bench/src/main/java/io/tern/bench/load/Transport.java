package io.tern.bench.load;

/** Client-to-server transport. The relayed leg (relay to peer) is always UDP. */
public enum Transport {
    UDP,
    TCP,
    TLS;

    public boolean stream() {
        return this != UDP;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Transport parse(String s) {
        return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
