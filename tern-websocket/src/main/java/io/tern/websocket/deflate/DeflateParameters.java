package io.tern.websocket.deflate;

/**
 * The outcome of an RFC 7692 negotiation, as seen on the wire (not from either side's point of view).
 *
 * @param serverMaxWindowBits 8..15; below 15 the server must not reference further back than 2^bits
 * @param clientMaxWindowBits 8..15; same for the client
 */
public record DeflateParameters(
        boolean serverNoContextTakeover,
        boolean clientNoContextTakeover,
        int serverMaxWindowBits,
        int clientMaxWindowBits) {
    public static final int MAX_WINDOW_BITS = 15;
    public static final int MIN_WINDOW_BITS = 8;
}
