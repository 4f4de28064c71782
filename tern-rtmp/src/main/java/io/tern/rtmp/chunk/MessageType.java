package io.tern.rtmp.chunk;

/** RTMP message type ids (RTMP specification 1.0, §5.4, §6.2, §7.1). */
public final class MessageType {
    public static final int SET_CHUNK_SIZE = 1;
    public static final int ABORT = 2;
    public static final int ACKNOWLEDGEMENT = 3;
    public static final int USER_CONTROL = 4;
    public static final int WINDOW_ACK_SIZE = 5;
    public static final int SET_PEER_BANDWIDTH = 6;
    public static final int AUDIO = 8;
    public static final int VIDEO = 9;
    public static final int DATA_AMF3 = 15;
    public static final int SHARED_OBJECT_AMF3 = 16;
    public static final int COMMAND_AMF3 = 17;
    public static final int DATA_AMF0 = 18;
    public static final int SHARED_OBJECT_AMF0 = 19;
    public static final int COMMAND_AMF0 = 20;
    public static final int AGGREGATE = 22;

    private MessageType() {}

    /** Protocol control messages travel on chunk stream 2 and message stream 0 (§5.4). */
    public static boolean isProtocolControl(int typeId) {
        return typeId >= SET_CHUNK_SIZE && typeId <= SET_PEER_BANDWIDTH;
    }
}
