package io.tern.bench.origin.report;

import io.tern.bench.load.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run's figures as an ordered flat map: one JSONL line. The generator fills the load's
 * figures, the runner adds the run's conditions; the summary reads lines back as maps.
 */
public final class RunRecord {
    private final Map<String, Object> fields;

    public RunRecord() {
        this(new LinkedHashMap<>());
    }

    private RunRecord(Map<String, Object> fields) {
        this.fields = fields;
    }

    public static RunRecord parse(String jsonLine) {
        return new RunRecord(new LinkedHashMap<>(Json.parseObject(jsonLine)));
    }

    public RunRecord put(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    public Object get(String key) {
        return fields.get(key);
    }

    /** A numeric field, NaN when absent or null. */
    public double number(String key) {
        return fields.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    public String string(String key) {
        Object v = fields.get(key);
        return v == null ? "" : v.toString();
    }

    public boolean flag(String key) {
        return Boolean.TRUE.equals(fields.get(key));
    }

    public Map<String, Object> fields() {
        return fields;
    }

    public String toJson() {
        return Json.write(fields);
    }
}
