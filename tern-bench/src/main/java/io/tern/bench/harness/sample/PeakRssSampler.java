package io.tern.bench.harness.sample;

/** Samples a server process's RSS every 50 ms on a daemon thread, keeping the peak. */
public final class PeakRssSampler implements AutoCloseable {
    public static final long PERIOD_MS = 50;

    private final long pid;
    private final Thread thread;
    private volatile boolean stop;
    private volatile long peakRssBytes;

    public PeakRssSampler(long pid) {
        this.pid = pid;
        this.thread = new Thread(this::loop, "rss-sampler-" + pid);
        thread.setDaemon(true);
    }

    public PeakRssSampler start() {
        if (pid > 0) {
            thread.start();
        }
        return this;
    }

    private void loop() {
        while (!stop) {
            sample();
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Takes one sample now (also used at the end of the measured phase) and returns it. */
    public long sample() {
        long rss = pid > 0 ? ProcStats.rssBytes(pid) : -1;
        synchronized (this) {
            if (rss > peakRssBytes) {
                peakRssBytes = rss;
            }
        }
        return rss;
    }

    public long peakRssBytes() {
        return peakRssBytes;
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
    }
}
