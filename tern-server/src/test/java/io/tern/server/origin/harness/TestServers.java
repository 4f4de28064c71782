package io.tern.server.origin.harness;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import io.tern.netty.stream.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test certificates for HTTP servers the harness tests start. */
public final class TestServers {
    private TestServers() {}

    /** A throwaway self-signed certificate for 127.0.0.1 and localhost, written under {@code dir}. */
    public static TlsSettings selfSigned(Path dir) throws Exception {
        X509Bundle bundle = new CertificateBuilder()
                .subject("CN=localhost")
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
        return new TlsSettings(cert, key, null, false, 0);
    }
}
