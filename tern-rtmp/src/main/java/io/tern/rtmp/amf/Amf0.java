package io.tern.rtmp.amf;

/** AMF0 type markers (AMF0 specification §2.1). */
final class Amf0 {
    static final int NUMBER = 0x00;
    static final int BOOLEAN = 0x01;
    static final int STRING = 0x02;
    static final int OBJECT = 0x03;
    static final int NULL = 0x05;
    static final int UNDEFINED = 0x06;
    static final int ECMA_ARRAY = 0x08;
    static final int OBJECT_END = 0x09;
    static final int STRICT_ARRAY = 0x0A;
    static final int DATE = 0x0B;
    static final int LONG_STRING = 0x0C;

    /** The longest string a STRING marker can carry; longer ones are LONG_STRING. */
    static final int MAX_SHORT_STRING_BYTES = 0xFFFF;

    private Amf0() {}
}
