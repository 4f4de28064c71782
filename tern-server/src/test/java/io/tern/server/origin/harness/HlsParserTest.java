package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Proves the hls-parser harness: playlists parsed from Java, LL-HLS tags read back, violations reported. */
class HlsParserTest {
    /** The low-latency media playlist of draft-pantos-hls-rfc8216bis's examples, shortened. */
    private static final String LOW_LATENCY = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:9
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=24.0
            #EXT-X-PART-INF:PART-TARGET=0.334
            #EXT-X-MEDIA-SEQUENCE:266
            #EXT-X-PROGRAM-DATE-TIME:2019-02-14T02:13:28.106Z
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:4.00008,
            fileSequence266.mp4
            #EXTINF:4.00008,
            fileSequence267.mp4
            #EXT-X-PART:DURATION=0.33334,URI="filePart268.0.mp4",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.33334,URI="filePart268.1.mp4"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart268.2.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=268,LAST-PART=1
            """;

    private static final String MULTIVARIANT = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="main",DEFAULT=YES,AUTOSELECT=YES,URI="audio.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000,AUDIO="audio"
            video.m3u8
            """;

    private static HlsParser parser;

    @BeforeAll
    static void start() throws Exception {
        parser = HlsParser.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (parser != null) {
            parser.close();
        }
    }

    @Test
    void readsTheLowLatencyTagsOfAMediaPlaylist() throws Exception {
        HlsParser.Result result = parser.parse(LOW_LATENCY);
        assertThat(result.ok()).as(result.error()).isTrue();
        Map<String, Object> playlist = result.playlist();
        assertThat(playlist.get("isMasterPlaylist")).isEqualTo(false);
        assertThat(playlist.get("targetDuration")).isEqualTo(4.0);
        assertThat(playlist.get("partTargetDuration")).isEqualTo(0.334);
        assertThat(playlist.get("mediaSequenceBase")).isEqualTo(266.0);
        assertThat(Json.at(playlist, "lowLatencyCompatibility", "canBlockReload"))
                .isEqualTo(true);
        assertThat(Json.at(playlist, "lowLatencyCompatibility", "canSkipUntil")).isEqualTo(24.0);
        assertThat(Json.list(playlist, "segments")).hasSize(3);
        assertThat(Json.at(playlist, "segments", 0, "programDateTime")).isEqualTo("2019-02-14T02:13:28.106Z");
        assertThat(Json.list(playlist, "segments", 2, "parts")).hasSize(3);
        assertThat(Json.at(playlist, "segments", 2, "parts", 0, "independent")).isEqualTo(true);
        assertThat(Json.at(playlist, "segments", 2, "parts", 2, "hint")).isEqualTo(true);
        assertThat(Json.at(playlist, "renditionReports", 0, "lastMSN")).isEqualTo(268.0);
        assertThat(Json.at(playlist, "renditionReports", 0, "lastPart")).isEqualTo(1.0);
    }

    @Test
    void readsAMultivariantPlaylist() throws Exception {
        HlsParser.Result result = parser.parse(MULTIVARIANT);
        assertThat(result.ok()).as(result.error()).isTrue();
        assertThat(result.playlist().get("isMasterPlaylist")).isEqualTo(true);
        assertThat(Json.at(result.playlist(), "variants", 0, "codecs")).isEqualTo("avc1.64001f,mp4a.40.2");
        assertThat(Json.at(result.playlist(), "variants", 0, "bandwidth")).isEqualTo(2_800_000.0);
        assertThat(Json.at(result.playlist(), "variants", 0, "audio", 0, "uri")).isEqualTo("audio.m3u8");
    }

    @Test
    void reportsWhatTheSpecForbids() throws Exception {
        // A part longer than PART-TARGET (§4.4.4.9): strict mode rejects it.
        HlsParser.Result tooLong = parser.parse(LOW_LATENCY.replace("PART-TARGET=0.334", "PART-TARGET=0.3"));
        assertThat(tooLong.ok()).isFalse();
        assertThat(tooLong.error()).contains("PART-TARGET");
        HlsParser.Result garbage = parser.parse("not a playlist");
        assertThat(garbage.ok()).isFalse();
        assertThat(garbage.error()).contains("EXTM3U");
        // The process keeps serving after a rejection.
        assertThat(parser.parse(MULTIVARIANT).ok()).isTrue();
    }
}
