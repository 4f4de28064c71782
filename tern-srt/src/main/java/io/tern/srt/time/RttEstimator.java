package io.tern.srt.time;

/**
 * The smoothed round-trip time and its variation (draft-sharabayko-srt §4.10): starts at 100 ms
 * and 50 ms, then {@code rtt = 7/8 rtt + 1/8 sample} and {@code var = 3/4 var + 1/4 |rtt - sample|}.
 */
public final class RttEstimator {
    private long rttUs = 100_000;
    private long varUs = 50_000;
    private boolean sampled;

    public void sample(long sampleUs) {
        if (sampleUs < 0) {
            return;
        }
        if (!sampled) {
            rttUs = sampleUs;
            varUs = sampleUs / 2;
            sampled = true;
            return;
        }
        varUs = (3 * varUs + Math.abs(rttUs - sampleUs)) / 4;
        rttUs = (7 * rttUs + sampleUs) / 8;
    }

    /** The peer's own estimate, as an ACK carries it: adopted until this side measures one. */
    public void peerEstimate(long peerRttUs, long peerVarUs) {
        if (!sampled && peerRttUs > 0) {
            rttUs = peerRttUs;
            varUs = Math.max(0, peerVarUs);
        }
    }

    public long rttUs() {
        return rttUs;
    }

    public long varUs() {
        return varUs;
    }
}
