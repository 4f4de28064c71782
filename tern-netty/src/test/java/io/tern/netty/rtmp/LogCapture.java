package io.tern.netty.rtmp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The lines Tern logs (System.Logger "tern", which the JDK backs with java.util.logging). */
final class LogCapture extends Handler implements AutoCloseable {
    private static final Logger TERN = Logger.getLogger("tern");
    final List<String> lines = new CopyOnWriteArrayList<>();

    LogCapture() {
        TERN.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record.getLevel() + " " + record.getMessage());
    }

    boolean contains(String text) {
        return lines.stream().anyMatch(l -> l.contains(text));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        TERN.removeHandler(this);
    }
}
