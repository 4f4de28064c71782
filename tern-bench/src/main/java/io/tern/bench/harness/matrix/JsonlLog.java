package io.tern.bench.harness.matrix;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A matrix's raw results: one JSON object per run, a line each, flushed as soon as the run ends so
 * that a matrix cut short still leaves every finished run to summarize. The report is always
 * rebuilt from this file ({@code --summarize}), never from memory.
 */
public final class JsonlLog implements AutoCloseable {
    private final BufferedWriter writer;

    private JsonlLog(BufferedWriter writer) {
        this.writer = writer;
    }

    /** Starts {@code file} afresh. */
    public static JsonlLog create(Path file) throws IOException {
        return new JsonlLog(Files.newBufferedWriter(
                file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING));
    }

    public void append(String json) throws IOException {
        writer.write(json);
        writer.newLine();
        writer.flush();
    }

    /** The non-blank lines of a results file, in order. */
    public static List<String> lines(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                out.add(line);
            }
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
