package io.tern.rtmp.session;

/**
 * A snapshot of one session's counters.
 *
 * @param bytesIn                  bytes received, handshake included
 * @param bytesOut                 bytes queued for the peer, handshake included
 * @param messagesIn               complete messages received
 * @param chunksIn                 chunks received by header type, 0 to 3
 * @param videoFrames              video access units delivered
 * @param keyframes                of which keyframes (IDR)
 * @param audioFrames              audio access units delivered
 * @param droppedMessages          media or data messages dropped (malformed, out of order, not publishing)
 * @param discontinuities          timestamp discontinuities reported
 * @param acknowledgementsSent     Acknowledgement messages sent as the peer's window required
 * @param acknowledgementsReceived Acknowledgement messages received
 * @param unacknowledgedBytes      bytes sent that the peer has not acknowledged yet
 * @param bufferedBytes            bytes held by the chunk streams' assembly buffers
 */
public record RtmpStats(
        long bytesIn,
        long bytesOut,
        long messagesIn,
        long[] chunksIn,
        long videoFrames,
        long keyframes,
        long audioFrames,
        long droppedMessages,
        long discontinuities,
        long acknowledgementsSent,
        long acknowledgementsReceived,
        long unacknowledgedBytes,
        long bufferedBytes) {

    public long chunksIn(int headerType) {
        return chunksIn[headerType];
    }
}
