package io.tern.server.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** Every event is one line: UTC time, level, the logger's short name, the message. */
class OneLineFormatterTest {
    private final OneLineFormatter formatter = new OneLineFormatter();

    private static LogRecord record(Level level, String logger, String message) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(logger);
        record.setInstant(Instant.parse("2026-12-07T04:30:01.123456Z"));
        return record;
    }

    @Test
    void writesTimeLevelShortNameAndMessageOnOneLine() {
        String line = formatter.format(record(Level.INFO, "tern.origin", "Live: live/cam1"));
        assertThat(line).isEqualTo("2026-12-07T04:30:01.123Z INFO  origin Live: live/cam1" + System.lineSeparator());
    }

    @Test
    void namesLevelsAsOperatorsReadThem() {
        assertThat(formatter.format(record(Level.SEVERE, "tern", "x"))).contains(" ERROR tern x");
        assertThat(formatter.format(record(Level.WARNING, "tern", "x"))).contains(" WARN  tern x");
        assertThat(formatter.format(record(Level.FINE, "tern", "x"))).contains(" DEBUG tern x");
        assertThat(formatter.format(record(Level.FINEST, "tern", "x"))).contains(" TRACE tern x");
    }

    @Test
    void namesLoggersByTheirLastPart() {
        assertThat(OneLineFormatter.shortName("io.netty.channel.DefaultChannelPipeline"))
                .isEqualTo("DefaultChannelPipeline");
        assertThat(OneLineFormatter.shortName("tern")).isEqualTo("tern");
        assertThat(OneLineFormatter.shortName("")).isEqualTo("-");
        assertThat(OneLineFormatter.shortName(null)).isEqualTo("-");
    }

    @Test
    void fillsInParameters() {
        LogRecord record = record(Level.INFO, "tern.http", "closed {0} after {1} ms");
        record.setParameters(new Object[] {"10.0.0.5:4000", 30});
        assertThat(formatter.format(record)).contains("http closed 10.0.0.5:4000 after 30 ms");
    }

    @Test
    void keepsAMultiLineMessageAndAnExceptionOnOneLine() {
        LogRecord record = record(Level.WARNING, "tern.origin", "first\r\nsecond");
        record.setThrown(new IllegalStateException("outer", new IOException("disk\nfull")));
        String line = formatter.format(record);
        assertThat(line.lines()).hasSize(1);
        assertThat(line)
                .contains("origin first\\nsecond (java.lang.IllegalStateException: outer at ")
                .contains("; caused by java.io.IOException: disk\\nfull at ")
                .endsWith(")" + System.lineSeparator());
    }

    @Test
    void boundsACauseChainThatLoops() {
        Exception first = new Exception("first");
        Exception second = new Exception("second", first);
        first.initCause(second);
        LogRecord record = record(Level.WARNING, "tern", "loop");
        record.setThrown(first);
        String line = formatter.format(record);
        assertThat(line.lines()).hasSize(1);
        assertThat(line.split("caused by", -1)).hasSize(8);
    }
}
