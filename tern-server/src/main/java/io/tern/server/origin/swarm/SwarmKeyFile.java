package io.tern.server.origin.swarm;

import io.tern.hls.swarm.OriginKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The origin's long-term swarm key on disk ({@code --swarm-key-file}): PKCS#8, PEM ({@code BEGIN
 * PRIVATE KEY}) or DER. Made at the first start with {@code --swarm}, readable by its owner only
 * (0600), and written whole or not at all (a temporary file moved into place), so a crash never
 * leaves half a key.
 */
public final class SwarmKeyFile {
    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";

    /** The key, and whether it was made now. */
    public record Loaded(OriginKey key, boolean created) {}

    private SwarmKeyFile() {}

    /**
     * Reads the key, or makes one from {@code random} when the file does not exist.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static Loaded loadOrCreate(Path file, SecureRandom random) {
        if (Files.exists(file)) {
            return new Loaded(read(file), false);
        }
        OriginKey key = OriginKey.generate(random);
        try {
            write(file, pem(key.pkcs8()));
        } catch (FileAlreadyExistsException raced) {
            return new Loaded(read(file), false);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot create the swarm key: " + e.getMessage(), e);
        }
        return new Loaded(key, true);
    }

    static OriginKey read(Path file) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read the swarm key: " + e.getMessage(), e);
        }
        String text = new String(content, StandardCharsets.US_ASCII);
        byte[] der = content;
        int begin = text.indexOf(BEGIN);
        if (begin >= 0) {
            int end = text.indexOf(END, begin);
            if (end < 0) {
                throw new IllegalArgumentException(file + ": '" + BEGIN + "' without '" + END + "'");
            }
            try {
                der = Base64.getMimeDecoder().decode(text.substring(begin + BEGIN.length(), end));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": the PEM body is not base64", e);
            }
        }
        try {
            return OriginKey.fromPkcs8(der);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": not an Ed25519 private key (PKCS#8, PEM or DER)", e);
        }
    }

    static String pem(byte[] der) {
        return BEGIN + "\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n" + END + "\n";
    }

    private static void write(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp;
        try {
            temp = Files.createTempFile(
                    dir,
                    ".tern-swarm",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            temp = Files.createTempFile(dir, ".tern-swarm", ".tmp");
        }
        try {
            Files.writeString(temp, text, StandardCharsets.US_ASCII);
            try {
                // A link appears whole, and fails if a key was made meanwhile: that one wins.
                Files.createLink(file, temp);
            } catch (UnsupportedOperationException noLinks) {
                Files.move(temp, file);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
