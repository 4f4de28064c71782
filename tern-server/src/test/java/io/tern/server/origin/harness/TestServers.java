package io.tern.server.origin.harness;

import io.tern.netty.stream.TlsSettings;
import io.tern.testkit.TestTls;
import java.nio.file.Path;

/** Test certificates for HTTP servers the harness tests start. */
public final class TestServers {
    private TestServers() {}

    /** A throwaway self-signed certificate for 127.0.0.1 and localhost, written under {@code dir}. */
    public static TlsSettings selfSigned(Path dir) throws Exception {
        TestTls.Pem pem = TestTls.selfSigned(dir, "CN=localhost");
        return new TlsSettings(pem.cert(), pem.key(), null, false, 0);
    }
}
