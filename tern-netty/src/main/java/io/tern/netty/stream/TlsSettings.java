package io.tern.netty.stream;

import java.nio.file.Path;
import java.util.Objects;

/**
 * TURN over TLS, as coturn configures it.
 *
 * @param certFile     PEM certificate chain, server certificate first ({@code cert})
 * @param keyFile      PEM private key, PKCS#8 or PKCS#1 RSA ({@code pkey})
 * @param cipherList   OpenSSL or IANA cipher names separated by ':', or null or "DEFAULT" for the
 *                     provider's defaults ({@code cipher-list}); applies to TLS 1.2
 * @param noTlsV1_2    offer TLS 1.3 only ({@code no-tlsv1_2}); TLS 1.0 and 1.1 are never offered
 * @param reloadPollMs how often the files' modification times are checked; 0 turns polling off
 */
public record TlsSettings(Path certFile, Path keyFile, String cipherList, boolean noTlsV1_2, long reloadPollMs) {
    public static final long DEFAULT_RELOAD_POLL_MS = 5000;

    public TlsSettings {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
    }
}
