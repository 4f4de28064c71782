package io.tern.server.origin.config;

import io.tern.srt.crypto.PassphraseKdf;
import java.util.regex.Pattern;

/** The value types of the SRT ingest's options: passphrases as libsrt accepts them, and users. */
public final class SrtValueTypes {
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private SrtValueTypes() {}

    /** An SRT passphrase: 10 to 79 characters, as {@code SRTO_PASSPHRASE} takes it. */
    public static ValueType<String> passphrase() {
        return new ValueType<>() {
            @Override
            public String parse(String text) {
                String problem = PassphraseKdf.validate(text);
                if (problem != null) {
                    throw new IllegalArgumentException(problem);
                }
                return text;
            }

            @Override
            public String format(String value) {
                return value;
            }

            @Override
            public String paramLabel() {
                return "<passphrase>";
            }
        };
    }

    /** {@code NAME:PASSPHRASE}, NAME being 1 to 64 of A-Z a-z 0-9 _ . - */
    public static ValueType<SrtUser> user() {
        ValueType<String> passphrase = passphrase();
        return new ValueType<>() {
            @Override
            public SrtUser parse(String text) {
                int colon = text.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("must be NAME:PASSPHRASE");
                }
                String name = text.substring(0, colon);
                if (!USER.matcher(name).matches()) {
                    throw new IllegalArgumentException("the user name must be 1 to 64 of A-Z a-z 0-9 _ . -");
                }
                return new SrtUser(name, passphrase.parse(text.substring(colon + 1)));
            }

            @Override
            public String format(SrtUser value) {
                return value.name() + ":" + value.passphrase();
            }

            @Override
            public String paramLabel() {
                return "<name:passphrase>";
            }
        };
    }
}
