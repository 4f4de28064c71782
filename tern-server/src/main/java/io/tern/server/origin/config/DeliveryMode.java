package io.tern.server.origin.config;

import io.tern.hls.packager.PartDelivery;

/**
 * {@code part-delivery}: how the preload-hinted part is sent while it is being written.
 * {@code stream} sends each CMAF chunk as it is written (lowest latency; what the issue asks for);
 * {@code whole} waits until the part is complete, as draft-pantos-hls-rfc8216bis-22 §6.2.6 says a
 * server should, so that clients measuring download speed measure the network, not the encoder.
 */
public enum DeliveryMode {
    STREAM(PartDelivery.STREAM_CHUNKS),
    WHOLE(PartDelivery.WHOLE_PART);

    private final PartDelivery packager;

    DeliveryMode(PartDelivery packager) {
        this.packager = packager;
    }

    public PartDelivery packager() {
        return packager;
    }
}
