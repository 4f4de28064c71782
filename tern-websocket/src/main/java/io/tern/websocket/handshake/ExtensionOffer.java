package io.tern.websocket.handshake;

import java.util.ArrayList;
import java.util.List;

/**
 * One element of a {@code Sec-WebSocket-Extensions} field (RFC 6455 §9.1): an extension token and its
 * parameters, in order, with quoted-string values unquoted.
 */
public record ExtensionOffer(String name, List<Parameter> parameters) {

    public record Parameter(String name, String value) {}

    /**
     * Parses a whole field value into its comma-separated elements.
     *
     * @throws IllegalArgumentException when the value does not follow the §9.1 grammar
     */
    public static List<ExtensionOffer> parseAll(String fieldValue) {
        List<ExtensionOffer> offers = new ArrayList<>();
        if (fieldValue == null || fieldValue.isBlank()) {
            return offers;
        }
        Cursor c = new Cursor(fieldValue);
        do {
            c.skipSpace();
            String name = c.token();
            List<Parameter> parameters = new ArrayList<>();
            c.skipSpace();
            while (c.consume(';')) {
                c.skipSpace();
                String parameterName = c.token();
                c.skipSpace();
                String value = null;
                if (c.consume('=')) {
                    c.skipSpace();
                    value = c.peek() == '"' ? c.quoted() : c.token();
                    c.skipSpace();
                }
                parameters.add(new Parameter(parameterName, value));
            }
            offers.add(new ExtensionOffer(name, List.copyOf(parameters)));
            c.skipSpace();
        } while (c.consume(','));
        if (!c.atEnd()) {
            throw new IllegalArgumentException("unexpected character at " + c.position);
        }
        return offers;
    }

    private static final class Cursor {
        private final String text;
        private int position;

        Cursor(String text) {
            this.text = text;
        }

        boolean atEnd() {
            return position >= text.length();
        }

        char peek() {
            return atEnd() ? '\0' : text.charAt(position);
        }

        boolean consume(char expected) {
            if (peek() == expected) {
                position++;
                return true;
            }
            return false;
        }

        void skipSpace() {
            while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
                position++;
            }
        }

        String token() {
            int start = position;
            while (!atEnd() && isTokenChar(peek())) {
                position++;
            }
            if (start == position) {
                throw new IllegalArgumentException("token expected at " + start);
            }
            return text.substring(start, position);
        }

        String quoted() {
            position++;
            StringBuilder sb = new StringBuilder();
            while (!atEnd() && peek() != '"') {
                if (peek() == '\\') {
                    position++;
                    if (atEnd()) {
                        break;
                    }
                }
                sb.append(text.charAt(position++));
            }
            if (!consume('"')) {
                throw new IllegalArgumentException("unterminated quoted-string");
            }
            return sb.toString();
        }

        private static boolean isTokenChar(char ch) {
            return ch > 0x20 && ch < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(ch) < 0;
        }
    }
}
