package io.tern.server.origin.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Where the publish secret comes from: an option, a file (its first line, trimmed), or, with
 * neither, 32 random bytes generated at start (hex), which the origin prints once, as the relay
 * prints its generated REST secret.
 *
 * @param secret    the shared secret (its UTF-8 bytes are the HMAC key)
 * @param generated whether it was generated now, so it must be shown to the operator
 */
public record PublishSecret(String secret, boolean generated) {
    private static final int GENERATED_BYTES = 32;

    /**
     * @param option the {@code --publish-secret} value, or null
     * @param file   the {@code --publish-secret-file} path, or null
     * @throws IllegalArgumentException naming the option when both are given, the file is empty, or
     *                                  unreadable
     */
    public static PublishSecret resolve(String option, Path file, SecureRandom random) {
        if (option != null && file != null) {
            throw new IllegalArgumentException("--publish-secret and --publish-secret-file exclude each other");
        }
        if (option != null) {
            if (option.isBlank()) {
                throw new IllegalArgumentException("--publish-secret must not be empty");
            }
            return new PublishSecret(option, false);
        }
        if (file != null) {
            String content;
            try {
                content = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "--publish-secret-file " + file + ": cannot read it: " + e.getMessage(), e);
            }
            String line = content.lines().findFirst().orElse("").trim();
            if (line.isEmpty()) {
                throw new IllegalArgumentException("--publish-secret-file " + file + ": the first line is empty");
            }
            return new PublishSecret(line, false);
        }
        byte[] bytes = new byte[GENERATED_BYTES];
        random.nextBytes(bytes);
        return new PublishSecret(HexFormat.of().formatHex(bytes), true);
    }

    /**
     * The start-up lines for the operator: the generated secret (only when generated) and an example
     * publish URL for {@code app/name} valid for a day from {@code nowEpochSeconds}.
     */
    public String announcement(String rtmpBase, String app, String name, long nowEpochSeconds, PublishTokens tokens) {
        String token = tokens.mint(app, name, nowEpochSeconds + 24 * 3600);
        String example = "Publish with: " + rtmpBase + "/" + app + "/" + name + "?" + PublishTokens.QUERY_PARAMETER
                + "=" + token + " (valid 24 h; mint others with ./tern origin-token NAME --expires 1h)";
        return generated
                ? "Generated publish secret (--publish-secret), shown once: " + secret + "\n" + example
                : example;
    }

    @Override
    public String toString() {
        return "PublishSecret[" + (generated ? "generated" : "given") + "]"; // never the secret
    }
}
