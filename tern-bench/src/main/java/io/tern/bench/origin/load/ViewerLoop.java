package io.tern.bench.origin.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.bench.origin.measure.MediaTimeline;
import io.tern.bench.origin.measure.Phases;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The viewers of one event loop: their timers, their playlist cache and their statistics.
 * Everything here runs on the loop's thread.
 *
 * <p>Timers: one heap of viewer deadlines and one scheduled task, armed at the earliest deadline
 * rounded up to a {@value #TIMER_GRID_NS} ns grid, so that every viewer due in the same slot is
 * served by one wake-up. Waking the loop is what costs here: a periodic 1 ms tick made the
 * generator's CPU per request 45% higher than a 10 ms one, on this 2-vCPU VM, and players poll
 * every half target duration (500 ms), where 5 ms of lateness changes nothing.
 */
final class ViewerLoop {
    static final long TIMER_GRID_NS = 5_000_000L;
    static final long TIMEOUT_SCAN_NS = 250_000_000L;

    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final InetSocketAddress remote;
    private final RequestWriter requestWriter;
    private final PlaylistCache playlists;
    private final Phases stats;
    private final int maxPlaylistBytes;
    private final long requestTimeoutNs;
    private final HttpDecoderConfig decoderConfig;
    private final List<ViewerSession> sessions = new ArrayList<>();
    private final TimerHeap timers = new TimerHeap();
    private final Runnable fire = this::fire;
    private ScheduledFuture<?> armed;
    private long armedNs = Long.MAX_VALUE;
    private ScheduledFuture<?> timeoutScan;
    private long malformed;
    private String firstMalformed;

    ViewerLoop(
            EventLoop loop,
            Bootstrap bootstrap,
            InetSocketAddress remote,
            MediaTimeline timeline,
            Phases stats,
            int maxPlaylistBytes,
            long requestTimeoutNs) {
        this.loop = loop;
        this.bootstrap = bootstrap;
        this.remote = remote;
        this.requestWriter = new RequestWriter(remote.getHostString() + ":" + remote.getPort());
        this.playlists = new PlaylistCache(timeline);
        this.stats = stats;
        this.maxPlaylistBytes = maxPlaylistBytes;
        this.requestTimeoutNs = requestTimeoutNs;
        // One content piece per socket read (not 8 KiB slices); no header validation work.
        this.decoderConfig = new HttpDecoderConfig().setMaxChunkSize(1 << 20).setValidateHeaders(false);
    }

    EventLoop eventLoop() {
        return loop;
    }

    void add(ViewerSession s) {
        sessions.add(s);
    }

    /** Arms every viewer's start and the timeout scan. Runs on the loop. */
    void start() {
        for (ViewerSession s : sessions) {
            reschedule(s);
        }
        timeoutScan =
                loop.scheduleAtFixedRate(this::scanTimeouts, TIMEOUT_SCAN_NS, TIMEOUT_SCAN_NS, TimeUnit.NANOSECONDS);
    }

    private void scanTimeouts() {
        long now = System.nanoTime();
        for (ViewerSession s : sessions) {
            s.checkTimeouts(now, requestTimeoutNs);
        }
    }

    /** The armed timer fired: serve every viewer that is due, then arm for the next one. */
    private void fire() {
        armed = null;
        armedNs = Long.MAX_VALUE;
        long now = System.nanoTime();
        while (timers.peekDeadline() <= now) {
            long deadline = timers.peekDeadline();
            ViewerSession s = sessions.get(timers.peekId());
            timers.pop();
            if (s.scheduledNs != deadline) {
                continue; // superseded
            }
            s.scheduledNs = Long.MAX_VALUE;
            stats.timerLag(now - deadline, now);
            s.viewer().onTimer(now);
            s.flush(now);
        }
        arm(timers.peekDeadline(), now);
    }

    /** Arms the viewer's timer at its deadline if that changed. */
    void reschedule(ViewerSession s) {
        long d = s.viewer().nextDeadlineNs();
        if (d != s.scheduledNs) {
            s.scheduledNs = d;
            if (d != Long.MAX_VALUE) {
                timers.push(d, s.id());
                arm(d, System.nanoTime());
            }
        }
    }

    /** Makes sure the loop wakes by {@code deadlineNs}'s grid slot. */
    private void arm(long deadlineNs, long nowNs) {
        if (deadlineNs == Long.MAX_VALUE) {
            return;
        }
        long slot = gridSlot(deadlineNs);
        if (slot >= armedNs) {
            return;
        }
        if (armed != null) {
            armed.cancel(false);
        }
        armedNs = slot;
        armed = loop.schedule(fire, Math.max(0, slot - nowNs), TimeUnit.NANOSECONDS);
    }

    /** {@code deadlineNs} rounded up to the timer grid. */
    static long gridSlot(long deadlineNs) {
        return Math.ceilDiv(deadlineNs, TIMER_GRID_NS) * TIMER_GRID_NS;
    }

    /** Stops every viewer and closes its connections. Runs on the loop. */
    void stop() {
        if (armed != null) {
            armed.cancel(false);
        }
        if (timeoutScan != null) {
            timeoutScan.cancel(false);
        }
        for (ViewerSession s : sessions) {
            s.stop();
        }
    }

    ChannelFuture connect(HttpConnection c) {
        return bootstrap
                .clone(loop)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpResponseDecoder(decoderConfig), c);
                    }
                })
                .connect(remote);
    }

    RequestWriter requestWriter() {
        return requestWriter;
    }

    PlaylistCache playlists() {
        return playlists;
    }

    Phases stats() {
        return stats;
    }

    int maxPlaylistBytes() {
        return maxPlaylistBytes;
    }

    void malformed(IllegalArgumentException e) {
        if (malformed++ == 0) {
            firstMalformed = e.getMessage();
        }
    }

    long malformedPlaylists() {
        return malformed;
    }

    String firstMalformed() {
        return firstMalformed;
    }

    long connects() {
        long n = 0;
        for (ViewerSession s : sessions) {
            n += s.connects();
        }
        return n;
    }

    int viewersStarted() {
        int n = 0;
        for (ViewerSession s : sessions) {
            if (s.viewer().started()) {
                n++;
            }
        }
        return n;
    }
}
