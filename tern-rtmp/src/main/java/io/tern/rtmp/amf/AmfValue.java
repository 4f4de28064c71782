package io.tern.rtmp.amf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An AMF0 value (Adobe's AMF0 specification, §2): the vocabulary of RTMP commands and of
 * {@code onMetaData}. Strings and long strings are one type here: the encoder picks the marker by
 * length. Containers are immutable and keep their properties in order.
 */
public sealed interface AmfValue {

    /** Converts plain Java values: {@code String}, {@code Number}, {@code Boolean}, null, or an AmfValue. */
    static AmfValue of(Object value) {
        return switch (value) {
            case null -> AmfNull.NULL;
            case AmfValue v -> v;
            case String s -> new AmfString(s);
            case Number n -> new AmfNumber(n.doubleValue());
            case Boolean b -> new AmfBoolean(b);
            default -> throw new IllegalArgumentException("no AMF0 form for " + value.getClass());
        };
    }

    record AmfNumber(double value) implements AmfValue {}

    record AmfBoolean(boolean value) implements AmfValue {}

    record AmfString(String value) implements AmfValue {
        public AmfString {
            if (value == null) {
                throw new IllegalArgumentException("null string");
            }
        }
    }

    /** An anonymous object (marker 0x03). */
    record AmfObject(Map<String, AmfValue> properties) implements AmfValue {
        public AmfObject {
            properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        }

        /** An object from alternating keys and values ({@link AmfValue#of} converts each value). */
        public static AmfObject of(Object... keysAndValues) {
            return new AmfObject(pairs(keysAndValues));
        }

        public AmfValue get(String key) {
            return properties.get(key);
        }

        /** The property as a string, or null when it is missing or not a string. */
        public String string(String key) {
            return properties.get(key) instanceof AmfString s ? s.value() : null;
        }

        /** The property as a number, or {@code fallback} when it is missing or not a number. */
        public double number(String key, double fallback) {
            return properties.get(key) instanceof AmfNumber n ? n.value() : fallback;
        }
    }

    /** An associative array (marker 0x08); its count field is only a hint, properties are what counts. */
    record AmfEcmaArray(Map<String, AmfValue> properties) implements AmfValue {
        public AmfEcmaArray {
            properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        }

        public static AmfEcmaArray of(Object... keysAndValues) {
            return new AmfEcmaArray(pairs(keysAndValues));
        }
    }

    record AmfStrictArray(List<AmfValue> values) implements AmfValue {
        public AmfStrictArray {
            values = List.copyOf(values);
        }
    }

    /** Milliseconds since the epoch and a time zone the specification reserves (should be 0). */
    record AmfDate(double epochMillis, short timeZone) implements AmfValue {}

    enum AmfNull implements AmfValue {
        NULL
    }

    enum AmfUndefined implements AmfValue {
        UNDEFINED
    }

    private static Map<String, AmfValue> pairs(Object[] keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must alternate");
        }
        Map<String, AmfValue> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], of(keysAndValues[i + 1]));
        }
        return map;
    }
}
