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
import io.tern.rtmp.bytes.BigEndian;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes AMF0 values from one message's bytes. Bounded: containers nest at most {@code maxDepth}
 * deep and one reader builds at most {@code maxValues} values, so a hostile message costs at most
 * its own size in strings plus a fixed number of small objects. Declared counts are never trusted
 * for allocation.
 */
public final class Amf0Reader {
    public static final int DEFAULT_MAX_DEPTH = 16;
    public static final int DEFAULT_MAX_VALUES = 4096;

    private final byte[] buf;
    private final int end;
    private final int maxDepth;
    private int pos;
    private int valuesLeft;

    public Amf0Reader(byte[] buf, int offset, int length) {
        this(buf, offset, length, DEFAULT_MAX_DEPTH, DEFAULT_MAX_VALUES);
    }

    public Amf0Reader(byte[] buf, int offset, int length, int maxDepth, int maxValues) {
        if (offset < 0 || length < 0 || length > buf.length - offset) {
            throw new IndexOutOfBoundsException("range " + offset + "+" + length + " of " + buf.length);
        }
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
        this.maxDepth = maxDepth;
        this.valuesLeft = maxValues;
    }

    /** Decodes every value of {@code buf[offset, offset + length)}. */
    public static List<AmfValue> readAll(byte[] buf, int offset, int length) throws AmfException {
        Amf0Reader reader = new Amf0Reader(buf, offset, length);
        List<AmfValue> values = new ArrayList<>(4);
        while (reader.hasRemaining()) {
            values.add(reader.read());
        }
        return values;
    }

    public boolean hasRemaining() {
        return pos < end;
    }

    public int position() {
        return pos;
    }

    public AmfValue read() throws AmfException {
        return value(0);
    }

    private AmfValue value(int depth) throws AmfException {
        if (--valuesLeft < 0) {
            throw new AmfException("more than the allowed number of AMF0 values");
        }
        int marker = u8();
        return switch (marker) {
            case Amf0.NUMBER -> new AmfNumber(f64());
            case Amf0.BOOLEAN -> new AmfBoolean(u8() != 0);
            case Amf0.STRING -> new AmfString(utf8(u16()));
            case Amf0.OBJECT -> new AmfObject(properties(depth + 1));
            case Amf0.NULL -> AmfNull.NULL;
            case Amf0.UNDEFINED -> AmfUndefined.UNDEFINED;
            case Amf0.ECMA_ARRAY -> {
                need(4);
                pos += 4; // the count is a hint; some encoders write 0
                yield new AmfEcmaArray(properties(depth + 1));
            }
            case Amf0.STRICT_ARRAY -> strictArray(depth + 1);
            case Amf0.DATE -> {
                double millis = f64();
                yield new AmfDate(millis, (short) u16());
            }
            case Amf0.LONG_STRING -> new AmfString(utf8(u32AsLength()));
            case Amf0.OBJECT_END -> throw new AmfException("object end marker outside an object");
            default ->
                throw new AmfException(
                        "unsupported AMF0 marker 0x" + Integer.toHexString(marker) + " at byte " + (pos - 1));
        };
    }

    private Map<String, AmfValue> properties(int depth) throws AmfException {
        checkDepth(depth);
        Map<String, AmfValue> properties = new LinkedHashMap<>();
        while (true) {
            int keyLength = u16();
            if (keyLength == 0) {
                need(1);
                if ((buf[pos] & 0xFF) == Amf0.OBJECT_END) {
                    pos++;
                    return properties;
                }
            }
            String key = utf8(keyLength);
            properties.put(key, value(depth));
        }
    }

    private AmfStrictArray strictArray(int depth) throws AmfException {
        checkDepth(depth);
        long count = u32();
        // Every value takes at least one byte, so a count past the bytes left is a lie.
        if (count > end - pos) {
            throw new AmfException("strict array of " + count + " values in " + (end - pos) + " bytes");
        }
        List<AmfValue> values = new ArrayList<>((int) Math.min(count, 64));
        for (long i = 0; i < count; i++) {
            values.add(value(depth));
        }
        return new AmfStrictArray(values);
    }

    private void checkDepth(int depth) throws AmfException {
        if (depth > maxDepth) {
            throw new AmfException("AMF0 containers nested deeper than " + maxDepth);
        }
    }

    private int u8() throws AmfException {
        need(1);
        return buf[pos++] & 0xFF;
    }

    private int u16() throws AmfException {
        need(2);
        int v = BigEndian.u16(buf, pos);
        pos += 2;
        return v;
    }

    private long u32() throws AmfException {
        need(4);
        long v = BigEndian.u32(buf, pos);
        pos += 4;
        return v;
    }

    private int u32AsLength() throws AmfException {
        long length = u32();
        if (length > end - pos) {
            throw new AmfException("long string of " + length + " bytes, " + (end - pos) + " left");
        }
        return (int) length;
    }

    private double f64() throws AmfException {
        need(8);
        long bits = (BigEndian.u32(buf, pos) << 32) | BigEndian.u32(buf, pos + 4);
        pos += 8;
        return Double.longBitsToDouble(bits);
    }

    private String utf8(int length) throws AmfException {
        need(length);
        String s = new String(buf, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return s;
    }

    private void need(int n) throws AmfException {
        if (end - pos < n) {
            throw new AmfException(
                    "AMF0 value truncated at byte " + pos + " (" + n + " needed, " + (end - pos) + " left)");
        }
    }
}
