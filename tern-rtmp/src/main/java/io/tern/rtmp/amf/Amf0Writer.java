package io.tern.rtmp.amf;

import io.tern.rtmp.amf.AmfValue.AmfBoolean;
import io.tern.rtmp.amf.AmfValue.AmfDate;
import io.tern.rtmp.amf.AmfValue.AmfEcmaArray;
import io.tern.rtmp.amf.AmfValue.AmfNull;
import io.tern.rtmp.amf.AmfValue.AmfNumber;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.amf.AmfValue.AmfStrictArray;
import io.tern.rtmp.amf.AmfValue.AmfString;
import io.tern.rtmp.amf.AmfValue.AmfUndefined;
import io.tern.rtmp.bytes.ByteWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Encodes AMF0 values; strings longer than 65535 UTF-8 bytes become long strings. */
public final class Amf0Writer {
    private Amf0Writer() {}

    public static void write(ByteWriter out, AmfValue value) {
        switch (value) {
            case AmfNumber n -> number(out, n.value());
            case AmfBoolean b -> out.u8(Amf0.BOOLEAN).u8(b.value() ? 1 : 0);
            case AmfString s -> string(out, s.value());
            case AmfObject o -> {
                out.u8(Amf0.OBJECT);
                properties(out, o.properties());
            }
            case AmfEcmaArray a -> {
                out.u8(Amf0.ECMA_ARRAY).u32(a.properties().size());
                properties(out, a.properties());
            }
            case AmfStrictArray a -> {
                out.u8(Amf0.STRICT_ARRAY).u32(a.values().size());
                for (AmfValue v : a.values()) {
                    write(out, v);
                }
            }
            case AmfDate d -> out.u8(Amf0.DATE).f64(d.epochMillis()).u16(d.timeZone());
            case AmfNull n -> out.u8(Amf0.NULL);
            case AmfUndefined u -> out.u8(Amf0.UNDEFINED);
        }
    }

    public static void number(ByteWriter out, double value) {
        out.u8(Amf0.NUMBER).f64(value);
    }

    public static void string(ByteWriter out, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > Amf0.MAX_SHORT_STRING_BYTES) {
            out.u8(Amf0.LONG_STRING).u32(utf8.length).bytes(utf8);
        } else {
            out.u8(Amf0.STRING).u16(utf8.length).bytes(utf8);
        }
    }

    public static void nullValue(ByteWriter out) {
        out.u8(Amf0.NULL);
    }

    private static void properties(ByteWriter out, Map<String, AmfValue> properties) {
        for (Map.Entry<String, AmfValue> e : properties.entrySet()) {
            byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
            if (key.length > Amf0.MAX_SHORT_STRING_BYTES) {
                throw new IllegalArgumentException("AMF0 property name of " + key.length + " bytes");
            }
            out.u16(key.length).bytes(key);
            write(out, e.getValue());
        }
        out.u16(0).u8(Amf0.OBJECT_END);
    }
}
