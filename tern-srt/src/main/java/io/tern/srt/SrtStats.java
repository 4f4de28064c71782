package io.tern.srt;

/**
 * One session's counters, as the server reports them: a snapshot, so it can be handed across
 * threads. Rates are over the last second of full ACK intervals.
 */
public record SrtStats(
        long sessionId,
        long rttUs,
        long rttVarUs,
        int latencyMs,
        long packetsReceived,
        long bytesReceived,
        long packetsLost,
        long packetsRetransmittedReceived,
        long packetsDroppedTooLate,
        long packetsMissingAtClose,
        long packetsUndecryptable,
        long packetsDuplicate,
        long packetsBeyondBuffer,
        long packetsSent,
        long packetsRetransmitted,
        long packetsSendDropped,
        long receiveRateBps,
        int receiveBufferCapacity) {}
