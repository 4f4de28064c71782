package io.tern.hls.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class AttestationVectorsTest {
    private static final Path FILE =
            Path.of("").toAbsolutePath().getParent().resolve("tern-swarm/test/vectors/attestation.json");
    private final AttestationVectors vectors = new AttestationVectors();

    @Test
    void theSharedFileIsWhatTheSeedsGive() throws Exception {
        String generated = vectors.json();
        if (Boolean.getBoolean("tern.vectors.write")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
                .as("%s; regenerate with -Dtern.vectors.write=true", FILE)
                .isEqualTo(generated);
    }

    @Test
    void everyObjectCaseVerifiesAsLabelled() {
        assertThat(vectors.objects.stream().filter(c -> !c.valid()).count()).isGreaterThanOrEqualTo(10);
        for (var c : vectors.objects) {
            assertThat(AttestationVectors.verify(c)).as(c.name()).isEqualTo(c.valid());
            assertThat(Attestation.parseTag(c.attestation().tag())).as(c.name()).isEqualTo(c.attestation());
        }
    }

    @Test
    void everySessionCaseVerifiesAsLabelled() {
        for (var c : vectors.sessions) {
            assertThat(AttestationVectors.verify(c)).as(c.name()).isEqualTo(c.valid());
            SessionEndorsement parsed =
                    SessionEndorsement.parseTag(c.endorsement().tag());
            assertThat(parsed.tag()).isEqualTo(c.endorsement().tag());
        }
    }

    @Test
    void ed25519MatchesRfc8032TestOne() {
        HexFormat hex = HexFormat.of();
        var pair = Ed25519.fromSeed(hex.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"));
        assertThat(hex.formatHex(Ed25519.publicRaw(pair.getPublic())))
                .isEqualTo("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
        assertThat(hex.formatHex(Ed25519.sign(pair.getPrivate(), new byte[0])))
                .isEqualTo(
                        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
    }

    @Test
    void theMessagesAreTheSpecsText() {
        var c = vectors.objects.get(1);
        assertThat(AttestationVectors.message(c))
                .isEqualTo("tern-swarm-object-v1\npart\ncam1\nvideo\n20261207T065000Z-4f2a\n7\n0\n300\n"
                        + SwarmMessages.b64url(c.attestation().sha256()));
        var s = vectors.sessions.getFirst();
        assertThat(AttestationVectors.message(s))
                .isEqualTo("tern-swarm-session-v1\ncam1\n20261207T065000Z-4f2a\n"
                        + SwarmMessages.b64url(vectors.sessionKey) + "\n" + AttestationVectors.NOT_AFTER);
    }

    @Test
    void theOriginKeyRoundTripsThroughPkcs8() {
        OriginKey back = OriginKey.fromPkcs8(vectors.origin.pkcs8());
        assertThat(back.publicRaw()).isEqualTo(vectors.origin.publicRaw());
    }
}
