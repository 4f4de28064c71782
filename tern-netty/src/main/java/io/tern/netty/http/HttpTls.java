package io.tern.netty.http;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.tern.netty.stream.TlsContextSource;
import io.tern.netty.stream.TlsSettings;
import java.io.IOException;
import java.security.GeneralSecurityException;

/** TLS for HTTP: the relay's certificate handling (BoringSSL, reload) with ALPN offering h2 and http/1.1. */
public final class HttpTls {
    private HttpTls() {}

    /** Loads the certificate and key (and reloads them as {@link TlsContextSource} does) for HTTP. */
    public static TlsContextSource load(TlsSettings settings) throws IOException, GeneralSecurityException {
        return TlsContextSource.load(settings, HttpTls::configure);
    }

    /** ALPN h2 then http/1.1, and RFC 7540 §9.2's cipher suites (TLS 1.2 ECDHE with AEAD; all of TLS 1.3). */
    public static void configure(SslContextBuilder builder) {
        builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                        ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2,
                        ApplicationProtocolNames.HTTP_1_1))
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE);
    }
}
