package io.tern.media.ts;

/** What the demuxer counted: every problem in the input ends up here, never in an exception. */
public final class TsStats {
    long packets;
    long syncLosses;
    long continuityErrors;
    long duplicatePackets;
    long transportErrors;
    long malformedPackets;
    long malformedSections;
    long malformedPes;
    long droppedUnits;
    long unitsBeforeConfig;
    long oversizedPes;
    long videoUnits;
    long audioUnits;

    public long packets() {
        return packets;
    }

    /** Bytes skipped to find the next 0x47 sync byte, counted once per resynchronisation. */
    public long syncLosses() {
        return syncLosses;
    }

    /** Discontinuities: a continuity counter that skipped (a lost packet). */
    public long continuityErrors() {
        return continuityErrors;
    }

    public long duplicatePackets() {
        return duplicatePackets;
    }

    public long transportErrors() {
        return transportErrors;
    }

    public long malformedPackets() {
        return malformedPackets;
    }

    public long malformedSections() {
        return malformedSections;
    }

    public long malformedPes() {
        return malformedPes;
    }

    /** Access units dropped because their packets were lost, broken or too large. */
    public long droppedUnits() {
        return droppedUnits;
    }

    /** Video frames dropped before the first SPS/PPS, or audio before a valid ADTS header. */
    public long unitsBeforeConfig() {
        return unitsBeforeConfig;
    }

    public long oversizedPes() {
        return oversizedPes;
    }

    public long videoUnits() {
        return videoUnits;
    }

    public long audioUnits() {
        return audioUnits;
    }

    /** Every error counter added up: zero for a clean stream. */
    public long errors() {
        return syncLosses
                + continuityErrors
                + transportErrors
                + malformedPackets
                + malformedSections
                + malformedPes
                + droppedUnits
                + oversizedPes;
    }

    @Override
    public String toString() {
        return "packets=" + packets + " video=" + videoUnits + " audio=" + audioUnits + " cc=" + continuityErrors
                + " sync=" + syncLosses + " dup=" + duplicatePackets + " tei=" + transportErrors + " badPkt="
                + malformedPackets + " badPsi=" + malformedSections + " badPes=" + malformedPes + " dropped="
                + droppedUnits + " beforeConfig=" + unitsBeforeConfig + " oversized=" + oversizedPes;
    }
}
