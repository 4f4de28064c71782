package io.tern.bench.harness.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a rebuilt report ({@code --summarize}) keeps from the one it replaces: the JSONL rows hold
 * the runs, not where and how they were made, so the earlier report's preamble (date, machine,
 * load, wall time, command, method) and its notes are carried over.
 */
public final class PreviousReport {
    /** The preamble line a rebuilt report gets; {@link #preamble} leaves earlier ones out. */
    public static final String REBUILT_STAMP = "- summary rebuilt from ";

    private PreviousReport() {}

    /**
     * The lines between the title and the first section, without earlier rebuilds' stamps (nor the
     * line older rebuilds wrote in place of a preamble). Empty if there is none.
     */
    public static List<String> preamble(String markdown) {
        List<String> out = new ArrayList<>();
        boolean inPreamble = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("# ")) {
                inPreamble = true;
            } else if (line.startsWith("## ")) {
                break;
            } else if (inPreamble
                    && !line.isBlank()
                    && !line.startsWith(REBUILT_STAMP)
                    && !line.startsWith("Rebuilt from ")) {
                out.add(line);
            }
        }
        return out;
    }

    /** As above, from a file; empty if it does not exist. */
    public static List<String> preamble(Path md) throws IOException {
        return Files.exists(md) ? preamble(Files.readString(md)) : List.of();
    }

    /** The items ("- ...") of the section headed {@code heading}. */
    public static List<String> notes(String markdown, String heading) {
        List<String> out = new ArrayList<>();
        boolean inNotes = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("## ")) {
                inNotes = line.startsWith(heading);
            } else if (inNotes && line.startsWith("- ")) {
                out.add(line.substring(2));
            }
        }
        return out;
    }
}
