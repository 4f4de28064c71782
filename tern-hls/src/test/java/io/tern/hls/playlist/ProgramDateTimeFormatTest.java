package io.tern.hls.playlist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class ProgramDateTimeFormatTest {
    private static final DateTimeFormatter ISO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Property(tries = 2000)
    void matchesJavaTime(@ForAll @LongRange(min = 0, max = 253_402_300_799_999L) long epochMs) {
        AsciiBuffer out = new AsciiBuffer();
        ProgramDateTime.append(out, epochMs);
        assertThat(new String(out.toBytes(), StandardCharsets.US_ASCII))
                .isEqualTo(ISO.format(Instant.ofEpochMilli(epochMs)));
    }
}
