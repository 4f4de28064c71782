package io.tern.turn.auth;

import io.tern.stun.integrity.MessageIntegrity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Credentials read from a user database at run time (coturn's {@code redis-userdb}): long-term
 * users given by their hex key, as coturn's {@code turnadmin} stores them, and REST API secrets.
 * Immutable: an adapter builds a new one from each reading and hands it to
 * {@link CredentialStore#replaceDynamic}; the engine never reads the database itself.
 *
 * <p>A value that cannot be a credential (a key that is not 32 or 64 hex digits, a name or secret
 * too long, more of them than the bounds) is refused, reported to the caller and left out, so it
 * grants nothing.
 */
public final class DynamicCredentials {
    /** Users kept from one reading; more are refused rather than held. */
    public static final int MAX_USERS = 100_000;
    /** Secrets kept from one reading: a rotation needs two or three. */
    public static final int MAX_SECRETS = 64;
    /** Longest secret accepted, in bytes. */
    public static final int MAX_SECRET_BYTES = 1024;
    /** RFC 8489 §14.3: USERNAME is under 509 bytes. */
    public static final int MAX_USERNAME_BYTES = 508;

    public static final DynamicCredentials EMPTY = new DynamicCredentials(Map.of(), Map.of(), List.of());

    private final Map<String, Credential> users;
    private final Map<String, String> userByHash;
    private final List<byte[]> secrets;

    private DynamicCredentials(Map<String, Credential> users, Map<String, String> userByHash, List<byte[]> secrets) {
        this.users = users;
        this.userByHash = userByHash;
        this.secrets = secrets;
    }

    /**
     * @param realm    the realm the keys were derived for
     * @param userKeys user name to hex key: 32 digits for MD5(user:realm:password), 64 for SHA-256
     * @param secrets  REST API secrets
     * @param refused  told, once per value left out, which and why (never the value itself)
     */
    public static DynamicCredentials of(
            String realm, Map<String, String> userKeys, List<String> secrets, Consumer<String> refused) {
        byte[] realmBytes = realm.getBytes(StandardCharsets.UTF_8);
        Map<String, Credential> users = new HashMap<>();
        Map<String, String> byHash = new HashMap<>();
        for (Map.Entry<String, String> entry : userKeys.entrySet()) {
            String name = entry.getKey();
            byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
            if (users.size() >= MAX_USERS) {
                refused.accept("user '" + printable(name) + "': more than " + MAX_USERS + " users");
                continue;
            }
            if (nameBytes.length == 0 || nameBytes.length > MAX_USERNAME_BYTES) {
                refused.accept(
                        "user '" + printable(name) + "': name is empty or over " + MAX_USERNAME_BYTES + " bytes");
                continue;
            }
            byte[] key = parseKey(entry.getValue());
            if (key == null) {
                refused.accept("user '" + printable(name) + "': key is not 32 (MD5) or 64 (SHA-256) hex digits");
                continue;
            }
            Credential credential =
                    key.length == 16 ? new Credential(name, name, key, null) : new Credential(name, name, null, key);
            users.put(name, credential);
            byHash.put(HexFormat.of().formatHex(MessageIntegrity.userHash(nameBytes, realmBytes)), name);
        }
        List<byte[]> secretBytes = new ArrayList<>();
        for (String secret : secrets) {
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            if (bytes.length == 0 || bytes.length > MAX_SECRET_BYTES) {
                refused.accept("a secret is empty or over " + MAX_SECRET_BYTES + " bytes");
            } else if (secretBytes.size() >= MAX_SECRETS) {
                refused.accept("more than " + MAX_SECRETS + " secrets");
                break;
            } else {
                secretBytes.add(bytes);
            }
        }
        return new DynamicCredentials(Map.copyOf(users), Map.copyOf(byHash), List.copyOf(secretBytes));
    }

    /** The key in coturn's form (an optional {@code 0x}, then hex), or null when it is not one. */
    static byte[] parseKey(String hex) {
        if (hex == null) {
            return null;
        }
        String digits = hex.strip();
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            digits = digits.substring(2);
        }
        if (digits.length() != 32 && digits.length() != 64) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String printable(String name) {
        String cut = name.length() > 64 ? name.substring(0, 64) + "..." : name;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }

    public int userCount() {
        return users.size();
    }

    public int secretCount() {
        return secrets.size();
    }

    Credential user(String name) {
        return users.get(name);
    }

    String usernameForHash(String hashHex) {
        return userByHash.get(hashHex);
    }

    List<byte[]> secrets() {
        return secrets;
    }
}
