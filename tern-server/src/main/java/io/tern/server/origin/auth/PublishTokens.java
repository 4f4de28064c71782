package io.tern.server.origin.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Publish tokens: a service that knows the shared secret mints one per stream, and the origin
 * checks it with no state and no call back.
 *
 * <p>The exact format, for services that mint tokens themselves:
 *
 * <pre>
 * message = APP "/" NAME ":" EXPIRY            e.g. "live/cam1:1767225600"
 * tag     = lowercase hex of HMAC-SHA256(key = the secret's UTF-8 bytes, message's UTF-8 bytes)
 * token   = EXPIRY "-" tag                     e.g. "1767225600-3f1c…" (64 hex digits)
 * </pre>
 *
 * EXPIRY is the last valid second, in Unix time, as decimal digits. The publisher sends the
 * token as the {@code token} query parameter: {@code rtmp://HOST:1935/live/cam1?token=TOKEN}
 * (in OBS: server {@code rtmp://HOST:1935/live}, stream key {@code cam1?token=TOKEN}). The same
 * token with openssl:
 *
 * <pre>
 * APP=live NAME=cam1 EXP=$(( $(date +%s) + 3600 ))
 * printf '%s' "$APP/$NAME:$EXP" | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1 | sed "s/^/$EXP-/"
 * </pre>
 *
 * The tag is compared in constant time; the expiry is read from the injected clock.
 */
public final class PublishTokens {
    public static final String QUERY_PARAMETER = "token";

    /**
     * The same token from a shell, with {@code APP}, {@code NAME}, {@code EXP} and {@code SECRET} set
     * (a test runs exactly this line and compares).
     */
    public static final String OPENSSL_COMMAND = "printf '%s' \"$APP/$NAME:$EXP\""
            + " | openssl dgst -sha256 -hmac \"$SECRET\" -r | cut -d' ' -f1 | sed \"s/^/$EXP-/\"";

    private static final String ALGORITHM = "HmacSHA256";
    private static final int TAG_HEX_DIGITS = 64;
    /** A decimal Unix time past this is not a plausible expiry (year 2286). */
    private static final int MAX_EXPIRY_DIGITS = 10;

    private final SecretKeySpec key;
    private final InstantSource clock;

    public PublishTokens(String secret, InstantSource clock) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("the publish secret must not be empty");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The token for {@code app/name}, valid through {@code expiryEpochSeconds}. */
    public String mint(String app, String name, long expiryEpochSeconds) {
        if (expiryEpochSeconds < 0) {
            throw new IllegalArgumentException("expiry must not be negative: " + expiryEpochSeconds);
        }
        return expiryEpochSeconds + "-" + HexFormat.of().formatHex(tag(app + "/" + name + ":" + expiryEpochSeconds));
    }

    /** Checks the {@code token} query parameter of {@code request}. */
    public PublishDecision verify(PublishRequest request) {
        return verify(request.app(), request.name(), request.queryParameter(QUERY_PARAMETER));
    }

    public PublishDecision verify(String app, String name, String token) {
        if (token == null || token.isEmpty()) {
            return PublishDecision.refuse("publish token missing (add ?token=... to the stream name)");
        }
        int dash = token.indexOf('-');
        if (dash <= 0 || dash > MAX_EXPIRY_DIGITS || token.length() != dash + 1 + TAG_HEX_DIGITS) {
            return PublishDecision.refuse("publish token malformed");
        }
        String expiryText = token.substring(0, dash);
        for (int i = 0; i < expiryText.length(); i++) {
            char c = expiryText.charAt(i);
            if (c < '0' || c > '9') {
                return PublishDecision.refuse("publish token malformed");
            }
        }
        byte[] presented;
        try {
            presented = HexFormat.of().parseHex(token, dash + 1, token.length());
        } catch (IllegalArgumentException e) {
            return PublishDecision.refuse("publish token malformed");
        }
        long expiry = Long.parseLong(expiryText);
        byte[] expected = tag(app + "/" + name + ":" + expiryText);
        if (!MessageDigest.isEqual(expected, presented)) {
            return PublishDecision.refuse("publish token invalid for " + app + "/" + name);
        }
        if (clock.instant().getEpochSecond() > expiry) {
            return PublishDecision.refuse("publish token expired");
        }
        return PublishDecision.allow();
    }

    private byte[] tag(String message) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is required by every Java platform", e);
        }
    }
}
