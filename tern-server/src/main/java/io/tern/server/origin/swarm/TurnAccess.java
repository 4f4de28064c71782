package io.tern.server.origin.swarm;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A TURN relay viewers may use, and short-lived credentials for it by the TURN REST scheme coturn's
 * {@code use-auth-secret} checks (draft-uberti-behave-turn-rest-00): username {@code
 * EXPIRY:ID}, password base64(HMAC-SHA1(secret, username)). The relay shares the secret; the
 * origin never tells it about a viewer.
 */
public final class TurnAccess {
    /** The longest a credential lives: the issue asks for "within the hour". */
    public static final long CREDENTIAL_TTL_S = 3600;

    /** One ICE server entry: the relay's URLs and the credential for all of them. */
    public record IceServer(List<String> urls, String username, String credential) {}

    private final Function<String, List<String>> urls;
    private final byte[] secret;
    private final char separator;
    private final InstantSource wallClock;
    private final SecureRandom random;

    /**
     * @param urls the relay's URLs for a viewer who reached the origin at this host name
     * @param secret the REST secret the relay checks with
     * @param separator between expiry and id ({@code rest-api-separator}, ':' by default)
     */
    public TurnAccess(
            Function<String, List<String>> urls,
            String secret,
            char separator,
            InstantSource wallClock,
            SecureRandom random) {
        this.urls = urls;
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.separator = separator;
        this.wallClock = wallClock;
        this.random = random;
    }

    /** An external relay at fixed URLs ({@code --turn-url}). */
    public static TurnAccess external(List<String> urls, String secret, InstantSource wallClock, SecureRandom random) {
        List<String> fixed = List.copyOf(urls);
        return new TurnAccess(host -> fixed, secret, ':', wallClock, random);
    }

    /** The relay's URLs and a fresh credential valid for {@link #CREDENTIAL_TTL_S}. */
    public IceServer issue(String host) {
        long expiry = wallClock.instant().getEpochSecond() + CREDENTIAL_TTL_S;
        byte[] id = new byte[9];
        random.nextBytes(id);
        String username = expiry
                + String.valueOf(separator)
                + Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        return new IceServer(urls.apply(host), username, password(secret, username));
    }

    /** base64(HMAC-SHA1(secret, username)), as coturn computes it. */
    public static String password(byte[] secret, String username) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret, "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(username.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no HMAC-SHA1", e);
        }
    }

    /**
     * The URLs of a relay listening on these ports, at {@code host}: {@code turn:} over UDP and TCP,
     * {@code turns:} over TLS (RFC 7065), each port once.
     */
    public static List<String> urls(
            String host, List<Integer> udpPorts, List<Integer> tcpPorts, List<Integer> tlsPorts) {
        List<String> out = new ArrayList<>();
        udpPorts.stream().distinct().forEach(p -> out.add("turn:" + host + ":" + p + "?transport=udp"));
        tcpPorts.stream().distinct().forEach(p -> out.add("turn:" + host + ":" + p + "?transport=tcp"));
        tlsPorts.stream().distinct().forEach(p -> out.add("turns:" + host + ":" + p + "?transport=tcp"));
        return out;
    }
}
