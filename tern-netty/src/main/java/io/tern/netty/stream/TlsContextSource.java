package io.tern.netty.stream;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The server's TLS context, built from coturn-style PEM files and replaced without a restart when
 * they change: on {@link #reload()} (SIGHUP) or when polling sees a new modification time or size.
 * Each new connection reads the current context when it is accepted, so sessions already running
 * keep theirs and new handshakes get the new certificate. A failed reload keeps the old context.
 *
 * <p>Uses BoringSSL through netty-tcnative when it loads, else the JDK's provider. TLS 1.3 and
 * 1.2 (unless {@code no-tlsv1_2}); never 1.0 or 1.1.
 */
public final class TlsContextSource implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");

    private final TlsSettings settings;
    private final SslProvider provider;
    private final Consumer<SslContextBuilder> customizer;
    private final AtomicReference<SslContext> current = new AtomicReference<>();
    private final AtomicLong reloads = new AtomicLong();
    private final Object reloadLock = new Object();
    private ScheduledExecutorService poller;
    private FileStamp loadedStamp;

    private TlsContextSource(TlsSettings settings, SslProvider provider, Consumer<SslContextBuilder> customizer) {
        this.settings = settings;
        this.provider = provider;
        this.customizer = customizer;
    }

    /** Loads the files now, failing when they can't be used, and starts polling them. */
    public static TlsContextSource load(TlsSettings settings) throws IOException, GeneralSecurityException {
        return load(settings, builder -> {});
    }

    /**
     * As {@link #load(TlsSettings)}, with {@code customizer} applied to every context built (ALPN for
     * HTTP/2, its cipher defaults); a {@code cipher-list} in the settings still overrides the ciphers.
     */
    public static TlsContextSource load(TlsSettings settings, Consumer<SslContextBuilder> customizer)
            throws IOException, GeneralSecurityException {
        SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        TlsContextSource source = new TlsContextSource(settings, provider, customizer);
        FileStamp stamp = FileStamp.of(settings);
        source.current.set(source.build());
        source.loadedStamp = stamp;
        LOG.log(
                System.Logger.Level.INFO,
                "TLS provider: " + source.providerName() + "; protocols " + String.join(", ", source.protocols())
                        + "; certificate " + settings.certFile());
        if (settings.reloadPollMs() > 0) {
            source.poller =
                    Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("tern-tls-reload", true));
            source.poller.scheduleWithFixedDelay(
                    source::reloadIfChanged, settings.reloadPollMs(), settings.reloadPollMs(), TimeUnit.MILLISECONDS);
        }
        return source;
    }

    /** The context new connections use. */
    public SslContext current() {
        return current.get();
    }

    /** "OpenSSL (BoringSSL ...)" or "JDK (reason OpenSSL is unavailable)". */
    public String providerName() {
        if (provider == SslProvider.OPENSSL) {
            return "OpenSSL (" + OpenSsl.versionString() + ")";
        }
        Throwable cause = OpenSsl.unavailabilityCause();
        return "JDK (netty-tcnative unavailable: " + (cause == null ? "unknown" : cause.getMessage()) + ")";
    }

    /** How many times the context was replaced since it was loaded. */
    public long reloads() {
        return reloads.get();
    }

    /**
     * Builds a new context from the files and, when that works, makes it current.
     *
     * @return whether the new context is in use
     */
    public boolean reload() {
        synchronized (reloadLock) {
            FileStamp stamp;
            try {
                stamp = FileStamp.of(settings);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "TLS certificate reload failed, keeping the current one: " + e);
                return false;
            }
            loadedStamp = stamp;
            try {
                current.set(build());
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "TLS certificate reload failed, keeping the current one: " + e);
                return false;
            }
            reloads.incrementAndGet();
            LOG.log(System.Logger.Level.INFO, "TLS certificate reloaded from " + settings.certFile());
            return true;
        }
    }

    private void reloadIfChanged() {
        try {
            FileStamp stamp = FileStamp.of(settings);
            boolean changed;
            synchronized (reloadLock) {
                changed = !stamp.equals(loadedStamp);
            }
            if (changed) {
                reload();
            }
        } catch (IOException e) {
            // A file being replaced may be missing for a moment; the next poll sees the new one.
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "TLS certificate poll failed: " + e);
        }
    }

    private SslContext build() throws IOException, GeneralSecurityException {
        X509Certificate[] chain = PemFiles.certificates(settings.certFile());
        PrivateKey key = PemFiles.privateKey(settings.keyFile());
        PemFiles.checkKeyMatches(key, chain[0]);
        SslContextBuilder builder =
                SslContextBuilder.forServer(key, chain).sslProvider(provider).protocols(protocols());
        customizer.accept(builder);
        List<String> ciphers = ciphers(settings.cipherList());
        if (ciphers != null) {
            builder.ciphers(ciphers, SupportedCipherSuiteFilter.INSTANCE);
        }
        try {
            return builder.build();
        } catch (javax.net.ssl.SSLException e) {
            throw new GeneralSecurityException("cannot build the TLS context: " + e.getMessage(), e);
        }
    }

    private List<String> protocols() {
        return settings.noTlsV1_2() ? List.of("TLSv1.3") : List.of("TLSv1.3", "TLSv1.2");
    }

    /** coturn's cipher-list: OpenSSL syntax; only plain names are taken, and DEFAULT means the defaults. */
    static List<String> ciphers(String cipherList) {
        if (cipherList == null || cipherList.isBlank() || cipherList.trim().equalsIgnoreCase("DEFAULT")) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (String name : cipherList.split("[:,\\s]+")) {
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }

    /** What polling compares: both files' modification times and sizes. */
    private record FileStamp(FileTime certModified, long certBytes, FileTime keyModified, long keyBytes) {
        static FileStamp of(TlsSettings settings) throws IOException {
            Path cert = settings.certFile();
            Path key = settings.keyFile();
            return new FileStamp(
                    Files.getLastModifiedTime(cert), Files.size(cert), Files.getLastModifiedTime(key), Files.size(key));
        }
    }
}
