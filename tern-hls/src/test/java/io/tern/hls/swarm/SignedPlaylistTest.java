package io.tern.hls.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A signed stream's media playlists: the swarm's tags where swarm-spec.md puts them, and nothing else changed. */
class SignedPlaylistTest {
    private static final String STREAM = "cam1";
    private static final String INSTANCE = "t1";
    private static final Pattern PART_URI = Pattern.compile("#EXT-X-PART:.*URI=\"([^\"]+)\".*");
    private static final Pattern MAP_URI = Pattern.compile("#EXT-X-MAP:URI=\"([^\"]+)\"");

    private final OriginKey origin = OriginKey.fromSeed(AttestationVectors.seed("SignedPlaylistTest origin"));

    private Harness signed() {
        StreamSigner signer = new StreamSigner(
                origin,
                STREAM,
                INSTANCE,
                new AttestationVectors.FixedRandom(AttestationVectors.seed("session")),
                StreamSigner.DEFAULT_SESSION_LIFETIME_S);
        return new Harness(
                        PackagerConfig.defaults(INSTANCE).withRenditions(RenditionMode.SEPARATE),
                        StreamLayout.VIDEO_AND_AUDIO,
                        signer)
                .configure(TestMedia.avc720p(), TestMedia.aac48k());
    }

    @Test
    void everyListedObjectIsAttestedAndItsBytesVerify() {
        Harness h = signed();
        h.feed(new SyntheticStream().generate(0, 9_000));
        for (TrackType track : List.of(TrackType.VIDEO, TrackType.AUDIO)) {
            String rendition = track == TrackType.VIDEO ? "video" : "audio";
            List<String> lines = lines(h.playlistBytes(track, ""));
            List<String> sessions = lines.stream()
                    .filter(l -> l.startsWith(SessionEndorsement.TAG))
                    .toList();
            assertThat(sessions).hasSize(1);
            assertThat(lines.indexOf(sessions.get(0))).isEqualTo(indexStartingWith(lines, "#EXT-X-PART-INF:") + 1);
            SessionEndorsement session = SessionEndorsement.parseTag(sessions.get(0));
            assertThat(session.verifies(origin.publicRaw(), STREAM, INSTANCE)).isTrue();
            assertThat(session.verifies(origin.publicRaw(), STREAM, "t2")).isFalse();
            byte[] key = session.sessionKey();

            int parts = 0;
            int segments = 0;
            int maps = 0;
            long msn = Long.parseLong(lines.get(indexStartingWith(lines, "#EXT-X-MEDIA-SEQUENCE:"))
                    .substring("#EXT-X-MEDIA-SEQUENCE:".length()));
            int partIndex = 0;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher part = PART_URI.matcher(line);
                Matcher map = MAP_URI.matcher(line);
                if (part.matches()) {
                    Attestation a = Attestation.parseTag(lines.get(i - 1));
                    assertThat(a).as("the line before %s", line).isNotNull();
                    byte[] bytes = h.bytes(part.group(1));
                    assertThat(a.verifies(key, ObjectKind.PART, STREAM, rendition, INSTANCE, msn, partIndex, bytes))
                            .as(line)
                            .isTrue();
                    assertThat(a.verifies(key, ObjectKind.PART, STREAM, rendition, INSTANCE, msn, partIndex + 1, bytes))
                            .isFalse();
                    partIndex++;
                    parts++;
                } else if (map.matches()) {
                    Attestation a = Attestation.parseTag(lines.get(i + 1));
                    assertThat(a.verifies(
                                    key, ObjectKind.INIT, STREAM, rendition, INSTANCE, -1, -1, h.bytes(map.group(1))))
                            .isTrue();
                    maps++;
                } else if (line.startsWith("#EXTINF:")) {
                    Attestation a = Attestation.parseTag(lines.get(i + 1));
                    String uri = lines.get(i + 2);
                    assertThat(a).as("the line after %s", line).isNotNull();
                    assertThat(a.verifies(key, ObjectKind.SEGMENT, STREAM, rendition, INSTANCE, msn, -1, h.bytes(uri)))
                            .as(uri)
                            .isTrue();
                    msn++;
                    partIndex = 0;
                    segments++;
                }
            }
            assertThat(maps).isEqualTo(1);
            assertThat(segments).isGreaterThanOrEqualTo(3);
            assertThat(parts).isGreaterThanOrEqualTo(10);
            long attestations =
                    lines.stream().filter(l -> l.startsWith(Attestation.TAG)).count();
            assertThat(attestations).isEqualTo(parts + segments + maps);
        }
    }

    @Test
    void withoutTheSwarmTheTagsAreAbsentAndWithItTheyAreAllThatIsAdded() {
        Harness plain = Harness.av();
        Harness signed = signed();
        List<io.tern.media.AccessUnit> media = new SyntheticStream().generate(0, 9_000);
        plain.feed(media);
        signed.feed(media);
        for (TrackType track : List.of(TrackType.VIDEO, TrackType.AUDIO)) {
            for (String query : List.of("", "_HLS_skip=YES")) {
                String without = new String(plain.playlistBytes(track, query), StandardCharsets.US_ASCII);
                String with = new String(signed.playlistBytes(track, query), StandardCharsets.US_ASCII);
                assertThat(without).doesNotContain("TERN");
                assertThat(with).contains(Attestation.TAG).contains(SessionEndorsement.TAG);
                String stripped = String.join(
                                "\n",
                                lines(with.getBytes(StandardCharsets.US_ASCII)).stream()
                                        .filter(l -> !l.startsWith("#EXT-X-TERN-"))
                                        .toList())
                        + "\n";
                assertThat(stripped).isEqualTo(without);
            }
        }
    }

    @Test
    void aSessionRotatesBeforeItExpiresAndTheOldOneStaysListedUntilThen() {
        StreamSigner signer = new StreamSigner(
                origin, STREAM, INSTANCE, new java.security.SecureRandom(), 2 * StreamSigner.ROTATION_LEAD_S);
        long t0 = 1_796_000_000L;
        List<SessionEndorsement> first = List.copyOf(signer.sessions(t0));
        assertThat(first).hasSize(1);
        assertThat(first.get(0).notAfterEpochS()).isEqualTo(t0 + 2 * StreamSigner.ROTATION_LEAD_S);
        assertThat(signer.sessions(t0 + StreamSigner.ROTATION_LEAD_S - 1)).containsExactlyElementsOf(first);

        byte[] bytes = {1, 2, 3};
        Attestation late = signer.attest(ObjectKind.PART, "video", 9, 0, bytes, t0 + StreamSigner.ROTATION_LEAD_S);
        List<SessionEndorsement> both = List.copyOf(signer.listed());
        assertThat(both).hasSize(2);
        assertThat(both.get(0)).isSameAs(first.get(0));
        assertThat(both.get(1).verifies(origin.publicRaw(), STREAM, INSTANCE)).isTrue();
        assertThat(late.verifies(both.get(1).sessionKey(), ObjectKind.PART, STREAM, "video", INSTANCE, 9, 0, bytes))
                .isTrue();
        assertThat(late.verifies(both.get(0).sessionKey(), ObjectKind.PART, STREAM, "video", INSTANCE, 9, 0, bytes))
                .isFalse();

        // At the first one's NOT-AFTER it is gone; the second, itself due for rotation, is still listed.
        List<SessionEndorsement> later = signer.sessions(first.get(0).notAfterEpochS());
        assertThat(later).doesNotContain(first.get(0));
        assertThat(later.get(0)).isSameAs(both.get(1));
    }

    private static int indexStartingWith(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no " + prefix);
    }

    private static List<String> lines(byte[] body) {
        return Arrays.asList(new String(body, StandardCharsets.US_ASCII).split("\n"));
    }
}
