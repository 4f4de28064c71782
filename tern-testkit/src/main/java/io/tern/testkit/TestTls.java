package io.tern.testkit;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** Throwaway TLS for tests: a self-signed certificate and key, and a client that trusts it. */
public final class TestTls {
    /** Where {@link #selfSigned} wrote the PEM files. */
    public record Pem(Path cert, Path key) {}

    private TestTls() {}

    /**
     * A self-signed P-256 certificate for {@code localhost} and 127.0.0.1 with subject
     * {@code subject} (for example {@code CN=localhost}), written as {@code cert.pem} and
     * {@code key.pem} in {@code dir}, replacing earlier ones (for reload tests).
     */
    public static Pem selfSigned(Path dir, String subject) throws Exception {
        X509Bundle bundle = new CertificateBuilder()
                .subject(subject)
                .ecp256()
                .setIsCertificateAuthority(true)
                .setKeyUsage(
                        true, CertificateBuilder.KeyUsage.digitalSignature, CertificateBuilder.KeyUsage.keyCertSign)
                .addSanDnsName("localhost")
                .addSanIpAddress("127.0.0.1")
                .buildSelfSigned();
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        Files.writeString(cert, bundle.getCertificatePEM());
        Files.writeString(key, bundle.getPrivateKeyPEM());
        return new Pem(cert, key);
    }

    /** A client context that accepts any server certificate (the tests' are self-signed). */
    public static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS client context", e);
        }
    }

    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
