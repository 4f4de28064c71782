package io.tern.rtmp.command;

import io.tern.rtmp.amf.AmfValue.AmfObject;

/**
 * The status objects of {@code _result}, {@code _error}, {@code onStatus} and
 * {@code onFCPublish}, with the codes and texts nginx-rtmp and SRS send, which OBS, ffmpeg and
 * GStreamer's rtmp2sink parse: {@code level}, {@code code} and {@code description}.
 */
public final class NetStatus {
    public static final String CONNECT_SUCCESS = "NetConnection.Connect.Success";
    public static final String CONNECT_REJECTED = "NetConnection.Connect.Rejected";
    public static final String CALL_FAILED = "NetConnection.Call.Failed";
    public static final String PUBLISH_START = "NetStream.Publish.Start";
    public static final String PUBLISH_BAD_NAME = "NetStream.Publish.BadName";
    public static final String PUBLISH_REJECTED = "NetStream.Publish.Rejected";
    public static final String UNPUBLISH_SUCCESS = "NetStream.Unpublish.Success";
    public static final String PLAY_FAILED = "NetStream.Play.Failed";

    public static final String LEVEL_STATUS = "status";
    public static final String LEVEL_ERROR = "error";

    /** nginx-rtmp's and SRS's answer in the properties of the connect {@code _result}. */
    public static final String FMS_VERSION = "FMS/3,0,1,123";

    public static final double CAPABILITIES = 31;

    private NetStatus() {}

    public static AmfObject status(String code, String description) {
        return AmfObject.of("level", LEVEL_STATUS, "code", code, "description", description);
    }

    public static AmfObject error(String code, String description) {
        return AmfObject.of("level", LEVEL_ERROR, "code", code, "description", description);
    }

    /** The connect {@code _result}'s first object: the server's properties. */
    public static AmfObject serverProperties() {
        return AmfObject.of("fmsVer", FMS_VERSION, "capabilities", CAPABILITIES, "mode", 1.0);
    }

    /** The connect {@code _result}'s information object. */
    public static AmfObject connectSuccess(double objectEncoding) {
        return AmfObject.of(
                "level",
                LEVEL_STATUS,
                "code",
                CONNECT_SUCCESS,
                "description",
                "Connection succeeded.",
                "objectEncoding",
                objectEncoding);
    }

    public static AmfObject publishStart(String streamName) {
        return AmfObject.of(
                "level",
                LEVEL_STATUS,
                "code",
                PUBLISH_START,
                "description",
                "Started publishing stream.",
                "details",
                streamName);
    }
}
