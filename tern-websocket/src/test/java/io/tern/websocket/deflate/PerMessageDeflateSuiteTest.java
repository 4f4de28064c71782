package io.tern.websocket.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.engine.EnginePeer;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.engine.WebSocketEngine;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Autobahn|Testsuite sections 12 and 13 (permessage-deflate), which the Maven plugin's bundled suite
 * lacks, reproduced from the suite's published parameters: the 18 (size, auto-fragment) pairs, the 5
 * payload kinds of 12.x and the 7 offer/accept pairs of 13.x. The client is {@link ReferenceDeflateClient}
 * (plain java.util.zip); the server is the Tern engine echoing. The suite sends 1000 messages per case;
 * here a case sends fewer (see {@link #messageCount}) to keep the run to seconds, walking the payload
 * corpus the same way (a sliding window that wraps around).
 */
class PerMessageDeflateSuiteTest {
    /** (payload bytes, auto-fragment bytes) from the suite's case12_X_X.py MSG_SIZES. */
    static final int[][] MESSAGE_SIZES = {
        {16, 0},
        {64, 0},
        {256, 0},
        {1024, 0},
        {4096, 0},
        {8192, 0},
        {16384, 0},
        {32768, 0},
        {65536, 0},
        {131072, 0},
        {8192, 256},
        {16384, 256},
        {32768, 256},
        {65536, 256},
        {131072, 256},
        {131072, 1024},
        {131072, 4096},
        {131072, 32768},
    };

    private static final CodecPool POOL = new CodecPool(6, 16);

    enum PayloadKind {
        JSON(true),
        BITMAP(false),
        GERMAN_TEXT(false),
        HTML(true),
        PDF(false);

        final boolean text;
        final byte[] corpus;
        final int[] codePoints;

        PayloadKind(boolean text) {
            this.text = text;
            this.corpus = Corpus.of(this);
            this.codePoints =
                    new String(corpus, StandardCharsets.UTF_8).codePoints().toArray();
        }
    }

    static int messageCount(int payloadBytes) {
        return Math.max(3, Math.min(50, 32768 / payloadBytes));
    }

    static Stream<Arguments> section12() {
        List<Arguments> cases = new ArrayList<>();
        PayloadKind[] kinds = PayloadKind.values();
        for (int j = 0; j < kinds.length; j++) {
            for (int i = 0; i < MESSAGE_SIZES.length; i++) {
                cases.add(Arguments.of(
                        "12." + (j + 1) + "." + (i + 1), kinds[j], MESSAGE_SIZES[i][0], MESSAGE_SIZES[i][1]));
            }
        }
        return cases.stream();
    }

    /**
     * Client offers of 13.x as (server_no_context_takeover, server_max_window_bits), with the response
     * the Tern server must give. Current suites use 9 bits where old ones used 8 (zlib rejects 8).
     */
    static final Object[][] SECTION_13_OFFERS = {
        {"permessage-deflate; client_max_window_bits", "permessage-deflate"},
        {
            "permessage-deflate; client_max_window_bits; server_no_context_takeover",
            "permessage-deflate; server_no_context_takeover"
        },
        {
            "permessage-deflate; client_max_window_bits; server_max_window_bits=9",
            "permessage-deflate; server_max_window_bits=9"
        },
        {
            "permessage-deflate; client_max_window_bits; server_max_window_bits=15",
            "permessage-deflate; server_max_window_bits=15"
        },
        {
            "permessage-deflate; client_max_window_bits; server_no_context_takeover; server_max_window_bits=9",
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=9"
        },
        {
            "permessage-deflate; client_max_window_bits; server_no_context_takeover; server_max_window_bits=15",
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=15"
        },
        {
            "permessage-deflate; client_max_window_bits; server_no_context_takeover; server_max_window_bits=9, "
                    + "permessage-deflate; client_max_window_bits; server_no_context_takeover, "
                    + "permessage-deflate; client_max_window_bits",
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=9"
        },
    };

    static Stream<Arguments> section13() {
        List<Arguments> cases = new ArrayList<>();
        for (int j = 0; j < SECTION_13_OFFERS.length; j++) {
            for (int i = 0; i < MESSAGE_SIZES.length; i++) {
                cases.add(Arguments.of(
                        "13." + (j + 1) + "." + (i + 1),
                        SECTION_13_OFFERS[j][0],
                        SECTION_13_OFFERS[j][1],
                        MESSAGE_SIZES[i][0],
                        MESSAGE_SIZES[i][1]));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} bytes, fragments of {3}")
    @MethodSource("section12")
    void section12(String caseId, PayloadKind kind, int payloadBytes, int fragmentBytes) throws Exception {
        runCase(kind, "permessage-deflate; client_max_window_bits", "permessage-deflate", payloadBytes, fragmentBytes);
    }

    @ParameterizedTest(name = "{0} {3} bytes, fragments of {4}")
    @MethodSource("section13")
    void section13(String caseId, String offer, String expectedResponse, int payloadBytes, int fragmentBytes)
            throws Exception {
        runCase(PayloadKind.JSON, offer, expectedResponse, payloadBytes, fragmentBytes);
    }

    private static void runCase(
            PayloadKind kind, String offer, String expectedResponse, int payloadBytes, int fragmentBytes)
            throws Exception {
        EnginePeer server =
                EnginePeer.server(WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(POOL)));
        server.echo = true;
        server.engine.start(0);
        String request = "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Extensions: " + offer + "\r\n\r\n";
        server.acceptUpgrade(request, 0);
        String response = new String(server.takeWire(), StandardCharsets.ISO_8859_1);
        Matcher accepted =
                Pattern.compile("Sec-WebSocket-Extensions: ([^\r]*)\r\n").matcher(response);
        assertThat(accepted.find()).as("server accepted an offer").isTrue();
        assertThat(accepted.group(1)).isEqualTo(expectedResponse);

        boolean serverNoContext = expectedResponse.contains("server_no_context_takeover");
        ReferenceDeflateClient client = new ReferenceDeflateClient(false, serverNoContext);
        try {
            int[] cursor = {0};
            for (int n = 0; n < messageCount(payloadBytes); n++) {
                byte[] message = nextSlice(kind, payloadBytes, cursor);
                byte[] frames = client.encode(kind.text, message, fragmentBytes);
                server.feed(frames, 0);
                byte[] echoed = server.takeWire();
                List<ReferenceDeflateClient.Message> decoded = client.decode(echoed);
                assertThat(decoded).hasSize(1);
                assertThat(decoded.get(0).text()).isEqualTo(kind.text);
                assertThat(decoded.get(0).payload()).isEqualTo(message);
                assertThat(echoed[0] & 0x40).as("echo is compressed").isEqualTo(0x40);
            }
            assertThat(server.engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
        } finally {
            client.end();
        }
    }

    /** The suite's sliding window: text is cut by characters, binary by bytes, wrapping at the end. */
    private static byte[] nextSlice(PayloadKind kind, int length, int[] cursor) {
        if (!kind.text) {
            byte[] out = new byte[length];
            for (int i = 0; i < length; i++) {
                out[i] = kind.corpus[(cursor[0] + i) % kind.corpus.length];
            }
            cursor[0] = (cursor[0] + length) % kind.corpus.length;
            return out;
        }
        int[] codePoints = kind.codePoints;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.appendCodePoint(codePoints[(cursor[0] + i) % codePoints.length]);
        }
        cursor[0] = (cursor[0] + length) % codePoints.length;
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Synthetic stand-ins for the suite's data files, with similar structure and compressibility. */
    static final class Corpus {
        private Corpus() {}

        static byte[] of(PayloadKind kind) {
            SplittableRandom random = new SplittableRandom(kind.ordinal());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            switch (kind) {
                case JSON -> {
                    StringBuilder sb = new StringBuilder("[");
                    for (int i = 0; sb.length() < 200_000; i++) {
                        sb.append("{\"id\":")
                                .append(i)
                                .append(",\"name\":\"user")
                                .append(random.nextInt(5000))
                                .append("\",\"tags\":[\"ä\",\"日本\",\"")
                                .append(random.nextInt())
                                .append("\"],\"score\":")
                                .append(random.nextDouble())
                                .append("},");
                    }
                    write(out, sb.append("{}]").toString());
                }
                case BITMAP -> {
                    for (int y = 0; y < 512; y++) {
                        for (int x = 0; x < 512; x++) {
                            out.write((x * y / 7 + random.nextInt(8)) & 0xFF);
                        }
                    }
                }
                case GERMAN_TEXT -> {
                    String[] words = {
                        "Habe",
                        "nun,",
                        "ach!",
                        "Philosophie,",
                        "Juristerei",
                        "und",
                        "Medizin,",
                        "leider",
                        "auch",
                        "Theologie",
                        "durchaus",
                        "studiert,",
                        "mit",
                        "heißem",
                        "Bemühn.",
                        "Da",
                        "steh",
                        "ich",
                        "nun,",
                        "ich",
                        "armer",
                        "Tor!",
                        "Und",
                        "bin",
                        "so",
                        "klug",
                        "als",
                        "wie",
                        "zuvor;"
                    };
                    StringBuilder sb = new StringBuilder();
                    while (sb.length() < 220_000) {
                        sb.append(words[random.nextInt(words.length)]).append(random.nextInt(9) == 0 ? "\n" : " ");
                    }
                    write(out, sb.toString());
                }
                case HTML -> {
                    StringBuilder sb = new StringBuilder("<!DOCTYPE html><html><body><table>");
                    for (int i = 0; sb.length() < 84_000; i++) {
                        sb.append("<tr class=\"row")
                                .append(i % 2)
                                .append("\"><td>")
                                .append(i)
                                .append("</td><td>€ ")
                                .append(random.nextInt(100_000))
                                .append("</td><td>Grüße</td></tr>\n");
                    }
                    write(out, sb.append("</table></body></html>").toString());
                }
                case PDF -> {
                    while (out.size() < 1_000_000) {
                        write(out, "obj << /Length 4096 /Filter /FlateDecode >> stream\n");
                        byte[] noise = new byte[4096];
                        random.nextBytes(noise);
                        out.write(noise, 0, noise.length);
                        write(out, "\nendstream endobj\n");
                    }
                }
                default -> throw new IllegalStateException();
            }
            return out.toByteArray();
        }

        private static void write(ByteArrayOutputStream out, String s) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            out.write(bytes, 0, bytes.length);
        }
    }
}
