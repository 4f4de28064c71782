package io.tern.server.origin.config;

/**
 * One {@code srt-user = NAME:PASSPHRASE}: the passphrase a publisher that names itself {@code NAME}
 * in its stream id ({@code u=NAME}, or {@code publish:live/STREAM:NAME:...}) must encrypt with,
 * whatever the stream.
 */
public record SrtUser(String name, String passphrase) {
    @Override
    public String toString() {
        return "SrtUser[" + name + "]"; // never the passphrase
    }
}
