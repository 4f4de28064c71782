package io.tern.websocket.deflate;

/**
 * How this endpoint negotiates permessage-deflate.
 *
 * @param forceServerNoContextTakeover server: answer with server_no_context_takeover even if not offered,
 *        so no deflater stays attached to an idle connection (RFC 7692 §7.1.1.1 allows it)
 * @param forceClientNoContextTakeover server: answer with client_no_context_takeover even if not offered
 *        (§7.1.1.2), so no inflater stays attached either
 * @param requestServerNoContextTakeover client: offer server_no_context_takeover
 * @param requestServerMaxWindowBits client: offer server_max_window_bits=N when 8..15, nothing when 0
 * @param offerClientNoContextTakeover client: offer client_no_context_takeover
 */
public record PerMessageDeflateConfig(
        CodecPool pool,
        boolean forceServerNoContextTakeover,
        boolean forceClientNoContextTakeover,
        boolean requestServerNoContextTakeover,
        int requestServerMaxWindowBits,
        boolean offerClientNoContextTakeover) {

    /** Honours every offer as given: context takeover kept unless the peer asks otherwise. */
    public static PerMessageDeflateConfig honourOffers(CodecPool pool) {
        return new PerMessageDeflateConfig(pool, false, false, false, 0, false);
    }

    /** Bounded memory: neither side keeps a compression context between messages. */
    public static PerMessageDeflateConfig noContextTakeover(CodecPool pool) {
        return new PerMessageDeflateConfig(pool, true, true, true, 0, true);
    }

    public PerMessageDeflateConfig withClientOffer(
            boolean serverNoContextTakeover, int serverMaxWindowBits, boolean clientNoContextTakeover) {
        return new PerMessageDeflateConfig(
                pool,
                forceServerNoContextTakeover,
                forceClientNoContextTakeover,
                serverNoContextTakeover,
                serverMaxWindowBits,
                clientNoContextTakeover);
    }
}
