package io.tern.server.origin.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.origin.auth.PublishRequest;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** How an SRT stream id becomes the registry's publish request: the stream and the token, in both forms. */
class SrtIngestRequestTest {
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 5000);

    private static PublishRequest request(String streamId) {
        return SrtIngest.request(StreamId.parse(streamId), PEER);
    }

    @Test
    void theShortFormCarriesTheTokenAsItsPassword() {
        PublishRequest r = request("publish:live/cam1:alice:1767225600-abc");
        assertThat(r.protocol()).isEqualTo("srt");
        assertThat(r.streamPath()).isEqualTo("live/cam1");
        assertThat(r.queryParameter("token")).isEqualTo("1767225600-abc");
        assertThat(request("publish:live/cam1::tok").queryParameter("token")).isEqualTo("tok");
        assertThat(request("publish:live/cam1").queryParameter("token")).isNull();
    }

    @Test
    void theKeyedFormCarriesItAsTheTokenKey() {
        PublishRequest r = request("#!::u=alice,r=live/cam1,token=1767225600-abc,m=publish");
        assertThat(r.name()).isEqualTo("cam1");
        assertThat(r.queryParameter("token")).isEqualTo("1767225600-abc");
        assertThat(request("#!::r=live/cam1,m=publish").queryParameter("token")).isNull();
    }

    @Test
    void onlyLiveSlashAValidNameIsAStream() {
        assertThat(request("publish:other/cam1")).isNull();
        assertThat(request("publish:live/a/b")).isNull();
        assertThat(request("publish:cam1")).isNull();
        assertThat(request("publish:live/-x")).isNull();
    }
}
