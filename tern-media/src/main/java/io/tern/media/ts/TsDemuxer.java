package io.tern.media.ts;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.util.ArrayDeque;

/**
 * An MPEG-TS demuxer (ISO 13818-1) for the first program's H.264 (stream type 0x1B) and AAC/ADTS
 * (0x0F) streams, producing the same {@link AccessUnit}s as the RTMP ingest.
 *
 * <p>Feed it bytes in any chunking (an SRT payload is 7 packets); it resynchronises on the 0x47
 * sync byte. Continuity counters are checked per PID: a skipped counter is a counted
 * discontinuity, and the access unit it broke is dropped. PTS/DTS are unwrapped to one continuous
 * timeline. Every buffer is bounded; malformed input is counted in {@link #stats()} and never
 * throws.
 *
 * <p>Configuration: {@link #videoConfig()} comes from in-band SPS/PPS and {@link #audioConfig()}
 * from ADTS headers; each is set before the first access unit of its track is queued, and {@link
 * #configChanges()} counts replacements. Video before the first SPS/PPS is dropped.
 */
public final class TsDemuxer {
    public static final int PACKET_BYTES = 188;
    static final int SYNC = 0x47;
    static final int MAX_VIDEO_PES = 8 << 20;
    static final int MAX_AUDIO_PES = 256 << 10;
    static final int MAX_QUEUED_UNITS = 4096;
    private static final int STREAM_TYPE_H264 = 0x1B;
    private static final int STREAM_TYPE_AAC_ADTS = 0x0F;

    private final byte[] carry = new byte[PACKET_BYTES];
    private int carryLength;
    private final int[] lastCc = new int[8192];
    private final SectionBuffer patSection = new SectionBuffer();
    private final SectionBuffer pmtSection = new SectionBuffer();
    private int pmtPid = -1;
    private PesBuffer video;
    private PesBuffer audio;
    private final TimestampUnwrapper unwrapper = new TimestampUnwrapper();
    private final AvcAccessUnits avc = new AvcAccessUnits();
    private final ArrayDeque<AccessUnit> queue = new ArrayDeque<>();
    private final TsStats stats = new TsStats();
    private AvcConfig videoConfig;
    private AacConfig audioConfig;
    private int configChanges;
    private boolean syncLost;
    private int adtsFixedHeader = -1;

    public TsDemuxer() {
        java.util.Arrays.fill(lastCc, -1);
    }

    public TsStats stats() {
        return stats;
    }

    public AvcConfig videoConfig() {
        return videoConfig;
    }

    public AacConfig audioConfig() {
        return audioConfig;
    }

    public int configChanges() {
        return configChanges;
    }

    /** The next access unit in stream order per track, or null. */
    public AccessUnit poll() {
        return queue.poll();
    }

    /** Bytes of any length: whole packets are demuxed, a partial one waits for the rest. */
    public void feed(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        if (carryLength > 0) {
            int need = PACKET_BYTES - carryLength;
            int n = Math.min(need, len);
            System.arraycopy(b, i, carry, carryLength, n);
            carryLength += n;
            i += n;
            if (carryLength < PACKET_BYTES) {
                return;
            }
            carryLength = 0;
            if ((carry[0] & 0xFF) == SYNC) {
                packet(carry, 0);
            } else {
                countSyncLoss();
            }
        }
        while (i < end) {
            if ((b[i] & 0xFF) != SYNC) {
                countSyncLoss();
                i++;
                continue;
            }
            syncLost = false;
            if (end - i < PACKET_BYTES) {
                System.arraycopy(b, i, carry, 0, end - i);
                carryLength = end - i;
                return;
            }
            packet(b, i);
            i += PACKET_BYTES;
        }
    }

    /** End of stream: the last PES of each track has no successor to end it, so finish it now. */
    public void flush() {
        finish(video);
        finish(audio);
    }

    private void countSyncLoss() {
        if (!syncLost) {
            syncLost = true;
            stats.syncLosses++;
        }
    }

    private void packet(byte[] b, int off) {
        stats.packets++;
        int h1 = b[off + 1] & 0xFF;
        int pid = ((h1 & 0x1F) << 8) | (b[off + 2] & 0xFF);
        boolean pusi = (h1 & 0x40) != 0;
        if ((h1 & 0x80) != 0) {
            stats.transportErrors++;
            breakPes(pid);
            return;
        }
        int h3 = b[off + 3] & 0xFF;
        int afc = (h3 >> 4) & 0x3;
        int cc = h3 & 0x0F;
        if (afc == 0) {
            stats.malformedPackets++;
            return;
        }
        int payload = off + 4;
        boolean discontinuity = false;
        if ((afc & 0x2) != 0) {
            int afLen = b[off + 4] & 0xFF;
            if (afLen > 183 || (afc == 3 && afLen > 182)) {
                stats.malformedPackets++;
                breakPes(pid);
                return;
            }
            if (afLen > 0) {
                discontinuity = (b[off + 5] & 0x80) != 0;
            }
            payload += 1 + afLen;
        }
        if ((afc & 0x1) == 0) {
            return;
        }
        if (pid != 0x1FFF) {
            int last = lastCc[pid];
            if (last >= 0 && !discontinuity) {
                if (cc == last) {
                    stats.duplicatePackets++;
                    return;
                }
                if (cc != ((last + 1) & 0x0F)) {
                    stats.continuityErrors++;
                    breakPes(pid);
                }
            }
            lastCc[pid] = cc;
        }
        int payloadLen = off + PACKET_BYTES - payload;
        if (pid == 0) {
            section(patSection, b, payload, payloadLen, pusi, true);
        } else if (pid == pmtPid) {
            section(pmtSection, b, payload, payloadLen, pusi, false);
        } else if (video != null && pid == video.pid) {
            pes(video, b, payload, payloadLen, pusi);
        } else if (audio != null && pid == audio.pid) {
            pes(audio, b, payload, payloadLen, pusi);
        }
    }

    private void breakPes(int pid) {
        if (video != null && video.pid == pid && video.active) {
            video.broken = true;
        }
        if (audio != null && audio.pid == pid && audio.active) {
            audio.broken = true;
        }
    }

    // ---- PSI ----

    private void section(SectionBuffer s, byte[] b, int off, int len, boolean pusi, boolean pat) {
        int complete = s.add(b, off, len, pusi);
        if (complete < 0) {
            if (complete == SectionBuffer.MALFORMED) {
                stats.malformedSections++;
            }
            return;
        }
        if (pat) {
            parsePat(s.data, complete);
        } else {
            parsePmt(s.data, complete);
        }
    }

    private void parsePat(byte[] s, int len) {
        if ((s[0] & 0xFF) != 0x00) {
            return;
        }
        for (int i = 8; i + 4 <= len - 4; i += 4) {
            int program = ((s[i] & 0xFF) << 8) | (s[i + 1] & 0xFF);
            int pid = ((s[i + 2] & 0x1F) << 8) | (s[i + 3] & 0xFF);
            if (program != 0) {
                if (pid != pmtPid) {
                    pmtPid = pid;
                    pmtSection.reset();
                }
                return;
            }
        }
    }

    private void parsePmt(byte[] s, int len) {
        if ((s[0] & 0xFF) != 0x02 || len < 16) {
            stats.malformedSections++;
            return;
        }
        int infoLen = ((s[10] & 0x0F) << 8) | (s[11] & 0xFF);
        int i = 12 + infoLen;
        int end = len - 4;
        int videoPid = -1;
        int audioPid = -1;
        while (i + 5 <= end) {
            int type = s[i] & 0xFF;
            int pid = ((s[i + 1] & 0x1F) << 8) | (s[i + 2] & 0xFF);
            int esInfo = ((s[i + 3] & 0x0F) << 8) | (s[i + 4] & 0xFF);
            if (type == STREAM_TYPE_H264 && videoPid < 0) {
                videoPid = pid;
            } else if (type == STREAM_TYPE_AAC_ADTS && audioPid < 0) {
                audioPid = pid;
            }
            i += 5 + esInfo;
        }
        if (videoPid >= 0 && (video == null || video.pid != videoPid)) {
            finish(video);
            video = new PesBuffer(videoPid, MAX_VIDEO_PES);
        }
        if (audioPid >= 0 && (audio == null || audio.pid != audioPid)) {
            finish(audio);
            audio = new PesBuffer(audioPid, MAX_AUDIO_PES);
        }
    }

    // ---- PES ----

    private void pes(PesBuffer p, byte[] b, int off, int len, boolean pusi) {
        if (pusi) {
            finish(p);
            startPes(p, b, off, len);
        } else if (p.active) {
            if (!p.broken && !p.append(b, off, len)) {
                stats.oversizedPes++;
            }
        } else {
            return;
        }
        if (p.active && p.complete()) {
            finish(p);
        }
    }

    private void startPes(PesBuffer p, byte[] b, int off, int len) {
        if (len < 9 || b[off] != 0 || b[off + 1] != 0 || b[off + 2] != 1) {
            stats.malformedPes++;
            p.reset();
            return;
        }
        int packetLength = ((b[off + 4] & 0xFF) << 8) | (b[off + 5] & 0xFF);
        int flags = b[off + 7] & 0xFF;
        int headerLength = b[off + 8] & 0xFF;
        if (9 + headerLength > len) {
            stats.malformedPes++;
            p.reset();
            return;
        }
        long pts = -1;
        long dts = -1;
        int ptsDts = flags >> 6;
        if (ptsDts >= 2 && headerLength >= 5) {
            pts = timestamp(b, off + 9);
            dts = pts;
            if (ptsDts == 3 && headerLength >= 10) {
                dts = timestamp(b, off + 14);
            }
        }
        int expected = packetLength == 0 ? -1 : packetLength - 3 - headerLength;
        if (packetLength != 0 && expected < 0) {
            stats.malformedPes++;
            p.reset();
            return;
        }
        p.start(pts, dts, expected);
        p.append(b, off + 9 + headerLength, len - 9 - headerLength);
    }

    private static long timestamp(byte[] b, int i) {
        return ((long) (b[i] & 0x0E) << 29)
                | ((b[i + 1] & 0xFF) << 22)
                | ((b[i + 2] & 0xFE) << 14)
                | ((b[i + 3] & 0xFF) << 7)
                | ((b[i + 4] & 0xFE) >> 1);
    }

    private void finish(PesBuffer p) {
        if (p == null || !p.active) {
            return;
        }
        try {
            if (p.broken) {
                stats.droppedUnits++;
            } else if (p.pts < 0) {
                stats.malformedPes++;
            } else if (p == video) {
                videoUnit(p);
            } else {
                audioUnits(p);
            }
        } finally {
            p.reset();
        }
    }

    private void videoUnit(PesBuffer p) {
        byte[] frame = avc.convert(p.data, p.length);
        if (!avc.sps.isEmpty() && !avc.pps.isEmpty()) {
            try {
                AvcConfig config = AvcConfig.fromParameterSets(avc.sps, avc.pps);
                if (!config.equals(videoConfig)) {
                    if (videoConfig != null) {
                        configChanges++;
                    }
                    videoConfig = config;
                }
            } catch (MediaFormatException e) {
                stats.malformedPes++;
            }
        }
        if (videoConfig == null) {
            stats.unitsBeforeConfig++;
            return;
        }
        if (avc.nalUnits == 0) {
            return;
        }
        long dts = unwrapper.unwrap(p.dts);
        long pts = dts + Math.floorMod(p.pts - p.dts, TimestampUnwrapper.WRAP);
        if (pts - dts > TimestampUnwrapper.WRAP / 2) {
            stats.malformedPes++;
            pts = dts;
        }
        stats.videoUnits++;
        enqueue(new AccessUnit(TrackType.VIDEO, dts, pts, avc.keyframe, frame));
    }

    private void audioUnits(PesBuffer p) {
        byte[] b = p.data;
        int len = p.length;
        long base = unwrapper.unwrap(p.pts);
        int i = 0;
        int frame = 0;
        while (i + 7 <= len) {
            if ((b[i] & 0xFF) != 0xFF || (b[i + 1] & 0xF6) != 0xF0) {
                stats.malformedPes++;
                return;
            }
            int headerLength = (b[i + 1] & 0x01) != 0 ? 7 : 9;
            int frameLength = ((b[i + 3] & 0x03) << 11) | ((b[i + 4] & 0xFF) << 3) | ((b[i + 5] & 0xE0) >> 5);
            if (frameLength <= headerLength || i + frameLength > len) {
                stats.malformedPes++;
                return;
            }
            // Profile, sampling frequency and channels live in header bytes 2 and 3: parse only on change.
            int fixedHeader = ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xC0);
            if (audioConfig == null || fixedHeader != adtsFixedHeader) {
                AacConfig config;
                try {
                    config = AacConfig.fromAdts(b, i, frameLength);
                } catch (MediaFormatException e) {
                    stats.malformedPes++;
                    return;
                }
                if (!config.equals(audioConfig)) {
                    if (audioConfig != null) {
                        configChanges++;
                    }
                    audioConfig = config;
                }
                adtsFixedHeader = fixedHeader;
            }
            AacConfig config = audioConfig;
            long pts = base + (long) frame * AacConfig.SAMPLES_PER_FRAME * 90_000 / config.sampleRateHz();
            byte[] raw = java.util.Arrays.copyOfRange(b, i + headerLength, i + frameLength);
            stats.audioUnits++;
            enqueue(new AccessUnit(TrackType.AUDIO, pts, pts, true, raw));
            frame++;
            i += frameLength;
        }
        if (i != len) {
            stats.malformedPes++;
        }
    }

    private void enqueue(AccessUnit unit) {
        if (queue.size() >= MAX_QUEUED_UNITS) {
            queue.poll();
            stats.droppedUnits++;
        }
        queue.add(unit);
    }
}
