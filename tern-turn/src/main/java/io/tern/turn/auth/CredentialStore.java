package io.tern.turn.auth;

import io.tern.stun.integrity.MessageIntegrity;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Long-term credentials as coturn provides them: static users ({@code user=name:password} or
 * {@code user=name:0x<md5 key>}) and the TURN REST API shared secret ({@code use-auth-secret}),
 * where the username is {@code <expiry>:<user>} and the password is
 * base64(HMAC-SHA1(secret, username)). Several secrets may be active at once so they can rotate.
 *
 * <p>Beside the configured users and secrets, a user database's ({@link DynamicCredentials}) may be
 * swapped in at any time by the adapter that reads it ({@link #replaceDynamic}); every lookup reads
 * one snapshot, so a request sees the old set or the new, never a mix. Configured users come first.
 */
public final class CredentialStore {
    static final int MAX_CACHED_REST_USERS = 4096;

    private final byte[] realm;
    private final Map<String, Credential> staticUsers;
    private final Map<String, String> userByHash;
    private final List<byte[]> secrets;
    private final char separator;
    /** Written by the user database's reader, read once per lookup by the relay threads. */
    private volatile Snapshot snapshot;

    /**
     * The dynamic credentials with every active secret, and the keys derived for REST usernames
     * under them: deriving them costs an HMAC, two digests and a JCE provider lookup, and every
     * request of an allocation's life (Refresh, CreatePermission, ChannelBind) would repeat it. The
     * cache belongs to the snapshot, so a removed secret's keys go with it. The expiry in the
     * username is still checked on every lookup.
     */
    private record Snapshot(
            DynamicCredentials dynamic,
            List<byte[]> secrets,
            ConcurrentHashMap<String, List<Credential>> restCredentials) {}

    private CredentialStore(
            byte[] realm,
            Map<String, Credential> staticUsers,
            Map<String, String> userByHash,
            List<byte[]> secrets,
            char separator) {
        this.realm = realm;
        this.staticUsers = staticUsers;
        this.userByHash = userByHash;
        this.secrets = secrets;
        this.separator = separator;
        this.snapshot = snapshotOf(DynamicCredentials.EMPTY);
    }

    private Snapshot snapshotOf(DynamicCredentials dynamic) {
        List<byte[]> all = new ArrayList<>(secrets);
        all.addAll(dynamic.secrets());
        return new Snapshot(dynamic, List.copyOf(all), new ConcurrentHashMap<>());
    }

    /**
     * Puts {@code dynamic} in place of the previous user database reading, for every request from
     * now on. Allocations keep the credential they were made with until their next request.
     */
    public void replaceDynamic(DynamicCredentials dynamic) {
        snapshot = snapshotOf(dynamic);
    }

    /** The user database reading in use. */
    public DynamicCredentials dynamic() {
        return snapshot.dynamic();
    }

    /**
     * @param staticUsers values as coturn writes them after {@code user=}: {@code name:password} or
     *                    {@code name:0x<32 hex digits>}
     * @param secrets     REST shared secrets; empty disables REST credentials
     */
    public static CredentialStore of(String realm, List<String> staticUsers, List<String> secrets, char separator) {
        byte[] realmBytes = realm.getBytes(StandardCharsets.UTF_8);
        Map<String, Credential> users = new HashMap<>();
        Map<String, String> byHash = new HashMap<>();
        for (String entry : staticUsers) {
            int colon = entry.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("user entry must be name:password, got '" + entry + "'");
            }
            String name = entry.substring(0, colon);
            String secret = entry.substring(colon + 1);
            byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
            Credential credential;
            if (secret.startsWith("0x") && secret.length() == 34) {
                credential = new Credential(name, name, HexFormat.of().parseHex(secret.substring(2)), null);
            } else {
                byte[] password = secret.getBytes(StandardCharsets.UTF_8);
                credential = new Credential(
                        name,
                        name,
                        MessageIntegrity.longTermKeyMd5(nameBytes, realmBytes, password),
                        MessageIntegrity.longTermKeySha256(nameBytes, realmBytes, password));
            }
            users.put(name, credential);
            byHash.put(HexFormat.of().formatHex(MessageIntegrity.userHash(nameBytes, realmBytes)), name);
        }
        List<byte[]> secretBytes = new ArrayList<>();
        for (String secret : secrets) {
            secretBytes.add(secret.getBytes(StandardCharsets.UTF_8));
        }
        return new CredentialStore(
                realmBytes, Map.copyOf(users), Map.copyOf(byHash), List.copyOf(secretBytes), separator);
    }

    public byte[] realm() {
        return realm;
    }

    public boolean hasStaticUsers() {
        return !staticUsers.isEmpty() || snapshot.dynamic().userCount() > 0;
    }

    /** The static username whose USERHASH this is, or null. */
    public String usernameForHash(byte[] userHash, int length) {
        String hashHex = HexFormat.of().formatHex(userHash, 0, length);
        String name = userByHash.get(hashHex);
        return name != null ? name : snapshot.dynamic().usernameForHash(hashHex);
    }

    /**
     * Candidate credentials for a username. A REST username yields one candidate per active secret
     * (the caller keeps the first whose key verifies the message). Empty when the user is unknown or
     * its REST expiry has passed.
     */
    public List<Credential> lookup(String username, long epochSeconds) {
        Credential user = staticUsers.get(username);
        if (user != null) {
            return List.of(user);
        }
        Snapshot current = snapshot;
        user = current.dynamic().user(username);
        if (user != null) {
            return List.of(user);
        }
        List<byte[]> activeSecrets = current.secrets();
        ConcurrentHashMap<String, List<Credential>> restCredentials = current.restCredentials();
        if (activeSecrets.isEmpty()) {
            return List.of();
        }
        int sep = username.indexOf(separator);
        String expiryText = sep < 0 ? username : username.substring(0, sep);
        long expiry;
        try {
            expiry = Long.parseLong(expiryText);
        } catch (NumberFormatException e) {
            return List.of();
        }
        if (expiry < epochSeconds) {
            return List.of();
        }
        List<Credential> cached = restCredentials.get(username);
        if (cached != null) {
            return cached;
        }
        String restUser = sep < 0 ? username : username.substring(sep + 1);
        byte[] nameBytes = username.getBytes(StandardCharsets.UTF_8);
        List<Credential> candidates = new ArrayList<>(activeSecrets.size());
        for (byte[] secret : activeSecrets) {
            byte[] password = restPassword(secret, nameBytes).getBytes(StandardCharsets.UTF_8);
            candidates.add(new Credential(
                    username,
                    restUser,
                    MessageIntegrity.longTermKeyMd5(nameBytes, realm, password),
                    MessageIntegrity.longTermKeySha256(nameBytes, realm, password)));
        }
        candidates = List.copyOf(candidates);
        if (restCredentials.size() >= MAX_CACHED_REST_USERS) {
            // Any username that parses is derived before its MESSAGE-INTEGRITY is checked, so the
            // cache is emptied rather than allowed to grow with what strangers send.
            restCredentials.clear();
        }
        restCredentials.put(username, candidates);
        return candidates;
    }

    int cachedRestUsers() {
        return snapshot.restCredentials().size();
    }

    /** base64(HMAC-SHA1(secret, username)): the password a REST API service hands to its clients. */
    public static String restPassword(byte[] secret, byte[] username) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret, "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(username));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
