package io.tern.bench.harness.sample;

/**
 * Samples the server's process tree on a daemon thread: RSS every 100 ms (peak and mean) and CPU
 * every second (the busiest second), counting only samples taken in {@code [fromNs, toNs]}.
 */
public final class ResourceSampler implements AutoCloseable {
    public static final long RSS_PERIOD_MS = 100;
    public static final int CPU_EVERY = 10;

    private final ProcessTree server;
    private final long fromNs;
    private final long toNs;
    private final Thread thread;
    private volatile boolean stop;
    private long peakRssBytes;
    private long rssSum;
    private long rssSamples;
    private double peakCpuPercent;

    public ResourceSampler(ProcessTree server, long fromNs, long toNs) {
        this.server = server;
        this.fromNs = fromNs;
        this.toNs = toNs;
        this.thread = new Thread(this::loop, "origin-resource-sampler");
        thread.setDaemon(true);
    }

    public ResourceSampler start() {
        if (server.rootPid() > 0) {
            thread.start();
        }
        return this;
    }

    private void loop() {
        long lastTicks = server.cpuTicks();
        long lastNs = System.nanoTime();
        int n = 0;
        while (!stop) {
            long rss = server.rssBytes();
            long sampledNs = System.nanoTime();
            boolean inWindow = sampledNs >= fromNs && sampledNs <= toNs;
            synchronized (this) {
                if (rss > 0 && inWindow) {
                    peakRssBytes = Math.max(peakRssBytes, rss);
                    rssSum += rss;
                    rssSamples++;
                }
            }
            if (++n % CPU_EVERY == 0) {
                long ticks = server.cpuTicks();
                long now = System.nanoTime();
                double pct = (ticks - lastTicks)
                        * 100.0
                        / io.tern.bench.harness.sample.ProcStats.CLOCK_TICKS_PER_SECOND
                        / ((now - lastNs) / 1e9);
                if (lastNs >= fromNs && now <= toNs + RSS_PERIOD_MS * 1_000_000L) {
                    synchronized (this) {
                        peakCpuPercent = Math.max(peakCpuPercent, pct);
                    }
                }
                lastTicks = ticks;
                lastNs = now;
            }
            try {
                Thread.sleep(RSS_PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    public synchronized long peakRssBytes() {
        return peakRssBytes;
    }

    public synchronized long meanRssBytes() {
        return rssSamples == 0 ? 0 : rssSum / rssSamples;
    }

    public synchronized double peakCpuPercent() {
        return peakCpuPercent;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join(2000);
        long rss = server.rssBytes();
        synchronized (this) {
            if (rss > 0) {
                peakRssBytes = Math.max(peakRssBytes, rss);
                rssSum += rss;
                rssSamples++;
            }
        }
    }
}
