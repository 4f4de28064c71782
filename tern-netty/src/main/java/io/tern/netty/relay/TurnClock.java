package io.tern.netty.relay;

import io.netty.channel.EventLoop;

/**
 * The time of one event-loop turn: {@link System#nanoTime()} read once, at the first input of a
 * turn, and forgotten by a task that runs after the turn's I/O. Every input of a turn (a batch of
 * datagrams read with one recvmmsg, the messages of one TCP read) is stamped with the same time.
 */
final class TurnClock {
    private final EventLoop loop;
    private final Runnable endOfTurn = this::endOfTurn;
    private long nowNs;
    private boolean valid;

    TurnClock(EventLoop loop) {
        this.loop = loop;
    }

    long nowNs() {
        if (!valid) {
            nowNs = System.nanoTime();
            valid = true;
            // Tasks run after the current turn's I/O, so the next turn reads the clock afresh.
            loop.execute(endOfTurn);
        }
        return nowNs;
    }

    private void endOfTurn() {
        valid = false;
    }
}
