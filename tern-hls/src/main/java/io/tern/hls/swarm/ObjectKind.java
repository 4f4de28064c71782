package io.tern.hls.swarm;

/** What an attestation covers; {@link #wire} is the word in the signed message and the playlist tag. */
public enum ObjectKind {
    PART("part"),
    SEGMENT("segment"),
    INIT("init");

    public final String wire;

    ObjectKind(String wire) {
        this.wire = wire;
    }

    /** The kind named {@code wire}, or null. */
    public static ObjectKind ofWire(String wire) {
        for (ObjectKind k : values()) {
            if (k.wire.equals(wire)) {
                return k;
            }
        }
        return null;
    }
}
