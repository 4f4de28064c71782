package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import java.util.concurrent.TimeUnit;

/**
 * Per-engine settings, immutable. What relay threads share (credentials, quotas, port pools, peer
 * policy) is in {@link TurnShared}.
 *
 * @param relayAddressV4         the IPv4 address relay sockets bind to, or null for no IPv4 relaying
 * @param relayAddressV6         the IPv6 address relay sockets bind to, or null for no IPv6 relaying
 * @param advertisedAddressV4    the address put in XOR-RELAYED-ADDRESS for IPv4 ({@code external-ip}),
 *                               or null to advertise the bound one
 * @param advertisedAddressV6    likewise for IPv6
 * @param software               SOFTWARE attribute value, or null to send none
 * @param alwaysFingerprint      add FINGERPRINT to every message, not only to answers of requests that had one
 * @param maxPermissions         permissions one allocation may hold; past it, 508
 * @param transactionCacheSize   responses remembered for retransmitted requests
 * @param unauthenticatedPerSecond 401/438 answers per second per source IP
 * @param unauthenticatedBurst   answers a quiet source may get at once
 * @param maxChannelNumber       highest channel number ChannelBind accepts: RFC 8656's 0x4FFF when
 *                               strict, or RFC 5766's 0x7FFF, which coturn and its client tools use
 * @param maxPeerConnections     TCP connections to peers one TCP allocation may hold (RFC 6062); past
 *                               it Connect gets 508 and peers connecting in are refused
 * @param peerConnectionTimeoutNs how long a Connect may take (then 447) and how long a peer
 *                               connection waits for its ConnectionBind (then it is closed); RFC 6062
 *                               says 30 s for both
 * @param clusterLeases          every Allocate that passes the local quotas also asks the transport
 *                               for a fleet-wide lease ({@link Command#ACQUIRE_LEASE}) before it is
 *                               answered ({@code --cluster-redis})
 * @param clusterFailClosed      a lease that cannot be decided (the fleet's store is unreachable)
 *                               refuses the Allocate with 508; otherwise the local quotas alone decide
 */
public record TurnEngineConfig(
        TransportAddress relayAddressV4,
        TransportAddress relayAddressV6,
        TransportAddress advertisedAddressV4,
        TransportAddress advertisedAddressV6,
        long defaultLifetimeNs,
        long maxLifetimeNs,
        long permissionLifetimeNs,
        long channelLifetimeNs,
        byte[] software,
        boolean alwaysFingerprint,
        int maxPermissions,
        int transactionCacheSize,
        long transactionLifetimeNs,
        double unauthenticatedPerSecond,
        double unauthenticatedBurst,
        int maxChannelNumber,
        int maxPeerConnections,
        long peerConnectionTimeoutNs,
        boolean clusterLeases,
        boolean clusterFailClosed) {

    /** RFC 8656 §7.2: an unclaimed RESERVATION-TOKEN lapses after about 30 seconds. */
    public static final long RESERVATION_LIFETIME_NS = TimeUnit.SECONDS.toNanos(30);

    /** RFC 8656 §12: channel numbers are 0x4000-0x4FFF. */
    public static final int RFC8656_MAX_CHANNEL = 0x4FFF;
    /** RFC 5766 §11 allowed 0x4000-0x7FFF; coturn's turnutils_uclient still picks from there. */
    public static final int RFC5766_MAX_CHANNEL = 0x7FFF;

    // The defaults tern turn's options read (coturn's own), so each is written once.
    /** RFC 8656 §3.2: 10 minutes when the client does not ask for a lifetime. */
    public static final int DEFAULT_LIFETIME_SECONDS = 600;
    /** coturn's max-allocate-lifetime. */
    public static final int DEFAULT_MAX_LIFETIME_SECONDS = 3600;
    /** RFC 8656 §9: a permission lasts 300 seconds. */
    public static final int DEFAULT_PERMISSION_LIFETIME_SECONDS = 300;
    /** RFC 8656 §12: a channel binding lasts 10 minutes. */
    public static final int DEFAULT_CHANNEL_LIFETIME_SECONDS = 600;

    public static final int DEFAULT_UNAUTHENTICATED_PER_SECOND = 50;

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private TransportAddress relayAddressV4 = TransportAddress.parse("127.0.0.1", 0);
        private TransportAddress relayAddressV6;
        private TransportAddress advertisedAddressV4;
        private TransportAddress advertisedAddressV6;
        private long defaultLifetimeNs = TimeUnit.SECONDS.toNanos(DEFAULT_LIFETIME_SECONDS);
        private long maxLifetimeNs = TimeUnit.SECONDS.toNanos(DEFAULT_MAX_LIFETIME_SECONDS);
        private long permissionLifetimeNs = TimeUnit.SECONDS.toNanos(DEFAULT_PERMISSION_LIFETIME_SECONDS);
        private long channelLifetimeNs = TimeUnit.SECONDS.toNanos(DEFAULT_CHANNEL_LIFETIME_SECONDS);
        private byte[] software;
        private boolean alwaysFingerprint;
        private int maxPermissions = 256;
        private int transactionCacheSize = 1024;
        private long transactionLifetimeNs = TimeUnit.SECONDS.toNanos(40);
        private double unauthenticatedPerSecond = DEFAULT_UNAUTHENTICATED_PER_SECOND;
        private double unauthenticatedBurst = 2 * DEFAULT_UNAUTHENTICATED_PER_SECOND;
        private int maxChannelNumber = RFC5766_MAX_CHANNEL;
        private int maxPeerConnections = 64;
        private long peerConnectionTimeoutNs = TimeUnit.SECONDS.toNanos(30);
        private boolean clusterLeases;
        private boolean clusterFailClosed;

        public Builder relayAddressV4(TransportAddress a) {
            this.relayAddressV4 = a;
            return this;
        }

        public Builder relayAddressV6(TransportAddress a) {
            this.relayAddressV6 = a;
            return this;
        }

        public Builder advertisedAddressV4(TransportAddress a) {
            this.advertisedAddressV4 = a;
            return this;
        }

        public Builder advertisedAddressV6(TransportAddress a) {
            this.advertisedAddressV6 = a;
            return this;
        }

        public Builder defaultLifetimeNs(long v) {
            this.defaultLifetimeNs = v;
            return this;
        }

        public Builder maxLifetimeNs(long v) {
            this.maxLifetimeNs = v;
            return this;
        }

        public Builder permissionLifetimeNs(long v) {
            this.permissionLifetimeNs = v;
            return this;
        }

        public Builder channelLifetimeNs(long v) {
            this.channelLifetimeNs = v;
            return this;
        }

        public Builder software(byte[] v) {
            this.software = v;
            return this;
        }

        public Builder alwaysFingerprint(boolean v) {
            this.alwaysFingerprint = v;
            return this;
        }

        public Builder maxPermissions(int v) {
            this.maxPermissions = v;
            return this;
        }

        public Builder transactionCacheSize(int v) {
            this.transactionCacheSize = v;
            return this;
        }

        public Builder transactionLifetimeNs(long v) {
            this.transactionLifetimeNs = v;
            return this;
        }

        public Builder unauthenticatedRate(double perSecond, double burst) {
            this.unauthenticatedPerSecond = perSecond;
            this.unauthenticatedBurst = burst;
            return this;
        }

        /** Accept only RFC 8656's channel numbers, 0x4000-0x4FFF. */
        public Builder strictChannelNumbers(boolean strict) {
            this.maxChannelNumber = strict ? RFC8656_MAX_CHANNEL : RFC5766_MAX_CHANNEL;
            return this;
        }

        public Builder maxPeerConnections(int v) {
            this.maxPeerConnections = v;
            return this;
        }

        public Builder peerConnectionTimeoutNs(long v) {
            this.peerConnectionTimeoutNs = v;
            return this;
        }

        /** Fleet-wide leases for every allocation; {@code failClosed} refuses when they cannot be decided. */
        public Builder clusterLeases(boolean leases, boolean failClosed) {
            this.clusterLeases = leases;
            this.clusterFailClosed = failClosed;
            return this;
        }

        public TurnEngineConfig build() {
            return new TurnEngineConfig(
                    relayAddressV4,
                    relayAddressV6,
                    advertisedAddressV4,
                    advertisedAddressV6,
                    defaultLifetimeNs,
                    maxLifetimeNs,
                    permissionLifetimeNs,
                    channelLifetimeNs,
                    software,
                    alwaysFingerprint,
                    maxPermissions,
                    transactionCacheSize,
                    transactionLifetimeNs,
                    unauthenticatedPerSecond,
                    unauthenticatedBurst,
                    maxChannelNumber,
                    maxPeerConnections,
                    peerConnectionTimeoutNs,
                    clusterLeases,
                    clusterFailClosed);
        }
    }
}
