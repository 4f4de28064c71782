package io.tern.server.origin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class IndexPageTest {
    @Test
    void listsEachLiveStreamWithALinkToItsWatchPage() {
        String html = IndexPage.render(List.of("cam1", "cam2"));
        assertThat(html)
                .contains("<a href=\"/live/cam1/\">live/cam1</a>")
                .contains("<a href=\"/live/cam2/\">live/cam2</a>")
                .contains("2 live")
                .contains("<meta name=\"viewport\"");
    }

    @Test
    void saysSoWhenNothingIsLive() {
        assertThat(IndexPage.render(List.of())).contains("No stream is live").doesNotContain("<ul");
    }

    @Test
    void escapesWhatItShows() {
        assertThat(IndexPage.escape("<a href=\"x\">&'")).isEqualTo("&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }

    @Test
    void theBuildCarriesHlsJsAndThePage() {
        WebAssets assets = WebAssets.load();
        try {
            assertThat(assets.file("hls.min.js").length()).as("hls.js from npm").isGreaterThan(100_000);
            assertThat(assets.file("hls.js-LICENSE.txt").length()).isPositive();
            assertThat(assets.watchPage().length()).isPositive();
            assertThat(assets.file("watch.js")).isNotNull();
            assertThat(assets.file("nope.js")).isNull();
        } finally {
            assets.release(); // its direct bodies, which paranoid leak detection reports otherwise
        }
    }
}
