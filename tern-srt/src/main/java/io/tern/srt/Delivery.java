package io.tern.srt;

/**
 * A payload delivered in order at its play time, filled by {@code pollDelivery}. {@link #data}
 * belongs to the engine's pool and is valid until the next call into the engine.
 */
public final class Delivery {
    public long sessionId;
    public byte[] data;
    public int length;
}
