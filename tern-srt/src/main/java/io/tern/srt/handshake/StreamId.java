package io.tern.srt.handshake;

/**
 * The stream id a caller sends in the SID extension, in both forms publishers use:
 *
 * <ul>
 *   <li>libsrt's access control syntax ({@code docs/features/access-control.md}): {@code
 *       #!::r=live/NAME,m=publish,u=USER} (keys in any order; {@code m} defaults to {@code request});
 *   <li>the short form MediaMTX popularised: {@code publish:live/NAME} or {@code read:live/NAME},
 *       optionally followed by {@code :USER:PASS}.
 * </ul>
 */
public record StreamId(Mode mode, String resource, String user, String password, String raw) {
    public static final int MAX_LENGTH = 512;

    public enum Mode {
        PUBLISH,
        REQUEST,
        BIDIRECTIONAL
    }

    /** The parsed id, or null when the string is neither form (an empty id is not a stream). */
    public static StreamId parse(String raw) {
        if (raw == null || raw.isEmpty() || raw.length() > MAX_LENGTH) {
            return null;
        }
        if (raw.startsWith("#!::")) {
            return parseKeyed(raw);
        }
        String[] parts = raw.split(":", -1);
        if (parts.length != 2 && parts.length != 4) {
            return null;
        }
        Mode mode = switch (parts[0]) {
            case "publish" -> Mode.PUBLISH;
            case "read" -> Mode.REQUEST;
            default -> null;
        };
        if (mode == null || !validResource(parts[1])) {
            return null;
        }
        String user = parts.length == 4 && !parts[2].isEmpty() ? parts[2] : null;
        String password = parts.length == 4 ? parts[3] : null;
        return new StreamId(mode, parts[1], user, password, raw);
    }

    private static StreamId parseKeyed(String raw) {
        String resource = null;
        String user = null;
        Mode mode = Mode.REQUEST;
        for (String pair : raw.substring(4).split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                return null;
            }
            String key = pair.substring(0, eq);
            String value = pair.substring(eq + 1);
            switch (key) {
                case "r" -> resource = value;
                case "u" -> user = value.isEmpty() ? null : value;
                case "m" -> {
                    mode = switch (value) {
                        case "publish" -> Mode.PUBLISH;
                        case "request" -> Mode.REQUEST;
                        case "bidirectional" -> Mode.BIDIRECTIONAL;
                        default -> null;
                    };
                    if (mode == null) {
                        return null;
                    }
                }
                default -> {
                    // h, s, t and custom keys are allowed by the syntax; Tern does not use them.
                }
            }
        }
        if (!validResource(resource)) {
            return null;
        }
        return new StreamId(mode, resource, user, null, raw);
    }

    private static boolean validResource(String r) {
        if (r == null || r.isEmpty() || r.length() > 256 || r.startsWith("/") || r.contains("..")) {
            return false;
        }
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '/'
                    || c == '_'
                    || c == '-'
                    || c == '.';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return mode.name().toLowerCase(java.util.Locale.ROOT) + ":" + resource + (user != null ? " user " + user : "");
    }
}
