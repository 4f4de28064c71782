package io.tern.server.log;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * One line per log event, the same for every server: {@code 2026-12-07T04:30:01.123Z INFO  origin
 * message}. The time is UTC to the millisecond, the level is padded to five characters, and the
 * logger is named by its last dotted part ({@code tern.origin} as {@code origin}, Netty's {@code
 * io.netty.channel.DefaultChannelPipeline} as {@code DefaultChannelPipeline}). A message's own line
 * breaks are written as {@code \n}, and a thrown exception is summed up on the same line (its chain
 * of causes and the frame that threw), so a log can be read, grepped and rotated line by line.
 */
public final class OneLineFormatter extends Formatter {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(128);
        line.append(TIME.format(record.getInstant())).append(' ');
        String level = levelName(record.getLevel());
        line.append(level).append(" ".repeat(Math.max(1, 6 - level.length())));
        line.append(shortName(record.getLoggerName())).append(' ');
        appendOneLine(line, formatMessage(record));
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            line.append(" (");
            appendThrown(line, thrown);
            line.append(')');
        }
        return line.append(System.lineSeparator()).toString();
    }

    /** Names an operator reads: java.util.logging's SEVERE is ERROR, FINE and below DEBUG and TRACE. */
    static String levelName(Level level) {
        int value = level.intValue();
        if (value >= Level.SEVERE.intValue()) {
            return "ERROR";
        } else if (value >= Level.WARNING.intValue()) {
            return "WARN";
        } else if (value >= Level.INFO.intValue()) {
            return "INFO";
        } else if (value >= Level.FINE.intValue()) {
            return "DEBUG";
        }
        return "TRACE";
    }

    /** The logger's last dotted part; the root logger, or one without a name, is "-". */
    static String shortName(String loggerName) {
        if (loggerName == null || loggerName.isEmpty()) {
            return "-";
        }
        return loggerName.substring(loggerName.lastIndexOf('.') + 1);
    }

    private static void appendThrown(StringBuilder line, Throwable thrown) {
        // A cause chain is bounded: a cycle (a cause that is its own ancestor) must not loop.
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 8; depth++) {
            if (depth > 0) {
                line.append("; caused by ");
            }
            appendOneLine(line, current.toString());
            StackTraceElement[] frames = current.getStackTrace();
            if (frames.length > 0) {
                line.append(" at ").append(frames[0]);
            }
            current = current.getCause() == current ? null : current.getCause();
        }
    }

    private static void appendOneLine(StringBuilder line, String text) {
        if (text == null) {
            line.append("null");
            return;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line.append("\\n");
            } else if (c != '\r') {
                line.append(c);
            }
        }
    }
}
