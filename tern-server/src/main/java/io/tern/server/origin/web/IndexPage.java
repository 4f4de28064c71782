package io.tern.server.origin.web;

import java.util.List;

/** The page at {@code /}: the live streams, each a link to its watch page; it reloads itself every few seconds. */
final class IndexPage {
    static final int REFRESH_SECONDS = 5;

    private IndexPage() {}

    static String render(List<String> liveStreams) {
        StringBuilder html = new StringBuilder(1024)
                .append("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta http-equiv=\"refresh\" content=\"")
                .append(REFRESH_SECONDS)
                .append("\">\n<title>Tern · live streams</title>\n")
                .append("<link rel=\"stylesheet\" href=\"/_tern/tern.css\">\n</head>\n<body>\n")
                .append("<header><a href=\"/\" class=\"brand\">Tern</a> <span>live streams</span>")
                .append("<span class=\"state\">")
                .append(liveStreams.size())
                .append(" live</span></header>\n<main>\n");
        if (liveStreams.isEmpty()) {
            html.append("<p>No stream is live. Publish one to <code>rtmp://HOST:PORT/live/NAME</code>;")
                    .append(" it appears here.</p>\n");
        } else {
            html.append("<ul class=\"streams\" id=\"streams\">\n");
            for (String name : liveStreams) {
                String escaped = escape(name);
                html.append("<li><a href=\"")
                        .append(WebRoutes.watchPath(escaped))
                        .append("\">live/")
                        .append(escaped)
                        .append("</a></li>\n");
            }
            html.append("</ul>\n");
        }
        return html.append("<p class=\"note\">The JSON API: <a href=\"/api/v1/openapi.json\">/api/v1</a></p>\n")
                .append("</main>\n</body>\n</html>\n")
                .toString();
    }

    /** Stream names are A-Z a-z 0-9 _ . - already; escaped anyway, as a page must not trust its data. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
