package io.tern.server.option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The value of every option of one table, and where each came from: the defaults, then each
 * occurrence in order (the file's, then the command line's), the last one winning.
 */
public final class Settings {
    private record Setting(Object value, ConfigSource source) {}

    private final Map<Option<?>, Setting> values = new LinkedHashMap<>();

    private Settings() {}

    /**
     * @throws io.tern.server.option.ConfigException naming the option, the value and where it was written
     */
    public static Settings assemble(List<Option<?>> rows, List<Occurrence> occurrences) {
        Settings settings = new Settings();
        for (Option<?> row : rows) {
            settings.values.put(row, new Setting(row.defaultValue(), ConfigSource.defaultValue()));
        }
        for (Occurrence occurrence : occurrences) {
            settings.values.put(
                    occurrence.option(), new Setting(occurrence.option().parse(occurrence), occurrence.source()));
        }
        return settings;
    }

    /** The option's value: given, or its default (null for "none"). */
    @SuppressWarnings("unchecked")
    public <V> V get(Option<V> option) {
        return (V) values.get(option).value();
    }

    /** Where the value came from; {@link ConfigSource#defaultValue()} when it was not given. */
    public ConfigSource source(Option<?> option) {
        return values.get(option).source();
    }

    /** Every value in the file's syntax ({@link Option#printed}), in table order, after {@code heading}. */
    public String print(String heading) {
        StringBuilder out = new StringBuilder(heading).append('\n');
        values.forEach(
                (row, setting) -> out.append(row.printed(setting.value())).append('\n'));
        return out.toString();
    }

    public boolean given(Option<?> option) {
        return !source(option).equals(ConfigSource.defaultValue());
    }
}
