package io.tern.media.codec;

import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import java.util.Arrays;

/**
 * An AAC decoder configuration: the AudioSpecificConfig of ISO 14496-3 §1.6.2.1 (the payload of
 * an RTMP AAC sequence header, and of an {@code esds} box), or one built from an ADTS header.
 */
public final class AacConfig implements CodecConfig {
    /** Samples per AAC frame (AAC-LC and HE-AAC core); frame durations follow from it. */
    public static final int SAMPLES_PER_FRAME = 1024;

    private static final int[] SAMPLE_RATES = {
        96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350
    };
    private static final int EXPLICIT_RATE = 15;

    private final int objectType;
    private final int sampleRateHz;
    private final int channels;
    private final byte[] audioSpecificConfig;

    private AacConfig(int objectType, int sampleRateHz, int channels, byte[] audioSpecificConfig) {
        this.objectType = objectType;
        this.sampleRateHz = sampleRateHz;
        this.channels = channels;
        this.audioSpecificConfig = audioSpecificConfig;
    }

    /** Parses an AudioSpecificConfig: object type, sampling frequency, channel configuration. */
    public static AacConfig parse(byte[] buf, int offset, int length) throws MediaFormatException {
        if (offset < 0 || length < 2 || offset + length > buf.length) {
            throw new MediaFormatException("AudioSpecificConfig of " + length + " bytes");
        }
        long bits = 0;
        int available = Math.min(length, 7);
        for (int i = 0; i < available; i++) {
            bits = (bits << 8) | (buf[offset + i] & 0xFF);
        }
        int totalBits = available * 8;
        int pos = 0;
        int objectType = (int) field(bits, totalBits, pos, 5);
        pos += 5;
        if (objectType == 31) {
            if (totalBits < pos + 6) {
                throw new MediaFormatException("AudioSpecificConfig truncated");
            }
            objectType = 32 + (int) field(bits, totalBits, pos, 6);
            pos += 6;
        }
        if (objectType == 0) {
            throw new MediaFormatException("AAC object type 0");
        }
        int rateIndex = (int) field(bits, totalBits, pos, 4);
        pos += 4;
        int sampleRate;
        if (rateIndex == EXPLICIT_RATE) {
            if (totalBits < pos + 24 + 4) {
                throw new MediaFormatException("AudioSpecificConfig truncated");
            }
            sampleRate = (int) field(bits, totalBits, pos, 24);
            pos += 24;
        } else if (rateIndex < SAMPLE_RATES.length) {
            sampleRate = SAMPLE_RATES[rateIndex];
        } else {
            throw new MediaFormatException("AAC sampling frequency index " + rateIndex);
        }
        if (totalBits < pos + 4) {
            throw new MediaFormatException("AudioSpecificConfig truncated");
        }
        int channelConfig = (int) field(bits, totalBits, pos, 4);
        if (sampleRate == 0) {
            throw new MediaFormatException("AAC sampling frequency 0");
        }
        int channels = channelConfig == 7 ? 8 : channelConfig;
        return new AacConfig(objectType, sampleRate, channels, Arrays.copyOfRange(buf, offset, offset + length));
    }

    /**
     * Builds the configuration from the fixed header of an ADTS frame (ISO 13818-7 §6.2), as
     * MPEG-TS carries AAC: profile, sampling frequency index and channel configuration.
     */
    public static AacConfig fromAdts(byte[] buf, int offset, int length) throws MediaFormatException {
        if (length < 7 || (buf[offset] & 0xFF) != 0xFF || (buf[offset + 1] & 0xF0) != 0xF0) {
            throw new MediaFormatException("not an ADTS header");
        }
        int objectType = ((buf[offset + 2] >> 6) & 0x03) + 1;
        int rateIndex = (buf[offset + 2] >> 2) & 0x0F;
        int channelConfig = ((buf[offset + 2] & 0x01) << 2) | ((buf[offset + 3] >> 6) & 0x03);
        if (rateIndex >= SAMPLE_RATES.length) {
            throw new MediaFormatException("ADTS sampling frequency index " + rateIndex);
        }
        byte[] asc = {
            (byte) ((objectType << 3) | (rateIndex >> 1)), (byte) (((rateIndex & 1) << 7) | (channelConfig << 3))
        };
        return new AacConfig(objectType, SAMPLE_RATES[rateIndex], channelConfig == 7 ? 8 : channelConfig, asc);
    }

    private static long field(long bits, int totalBits, int pos, int width) throws MediaFormatException {
        if (pos + width > totalBits) {
            throw new MediaFormatException("AudioSpecificConfig truncated");
        }
        return (bits >>> (totalBits - pos - width)) & ((1L << width) - 1);
    }

    @Override
    public TrackType track() {
        return TrackType.AUDIO;
    }

    /** {@code mp4a.40.<object type>}, e.g. {@code mp4a.40.2} for AAC-LC. */
    @Override
    public String codecs() {
        return "mp4a.40." + objectType;
    }

    /** The audio object type: 2 for AAC-LC, 5 for SBR (HE-AAC), 29 for PS (HE-AACv2). */
    public int objectType() {
        return objectType;
    }

    public int sampleRateHz() {
        return sampleRateHz;
    }

    /** Channels from the channel configuration; 0 means the configuration is in the stream. */
    public int channels() {
        return channels;
    }

    /** The AudioSpecificConfig bytes for an {@code esds} box; do not modify. */
    public byte[] audioSpecificConfig() {
        return audioSpecificConfig;
    }

    /** The duration of one frame in 90 kHz ticks, rounded down; packagers count samples instead. */
    public long frameDurationTicks() {
        return (long) SAMPLES_PER_FRAME * 90_000 / sampleRateHz;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AacConfig other && Arrays.equals(audioSpecificConfig, other.audioSpecificConfig);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(audioSpecificConfig);
    }

    @Override
    public String toString() {
        return codecs() + " " + sampleRateHz + " Hz " + channels + " ch";
    }
}
