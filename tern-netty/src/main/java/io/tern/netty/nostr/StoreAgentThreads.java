package io.tern.netty.nostr;

import io.tern.nostr.store.StoreAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a store's agents, each on a daemon thread of its own: {@link StoreAgent#doWork} while it
 * finds work, {@link StoreAgent#awaitWork} (blocking, so an idle store costs no CPU) when it does
 * not. Closing stops the waits, lets each agent finish what was already submitted (bounded), and
 * joins the threads.
 */
final class StoreAgentThreads implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern.nostr");
    /** How long an idle agent blocks before looking at the stop flag again. */
    private static final long IDLE_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * At close, the time an agent has to finish the requests already submitted (writes waiting for
     * their commit; a long query is cut short instead).
     */
    private static final long FINISH_NS = TimeUnit.SECONDS.toNanos(5);

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    StoreAgentThreads(List<StoreAgent> agents) {
        for (StoreAgent agent : agents) {
            Thread t = new Thread(() -> run(agent), agent.roleName());
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void run(StoreAgent agent) {
        try {
            while (running) {
                if (agent.doWork() == 0) {
                    agent.awaitWork(IDLE_WAIT_NS);
                }
            }
        } catch (InterruptedException stopping) {
            // close() interrupts only the wait; what was submitted is finished below
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, agent.roleName() + " stopped: " + e, e);
            return;
        }
        Thread.interrupted();
        long deadlineNs = System.nanoTime() + FINISH_NS;
        while (agent.doWork() > 0 && System.nanoTime() < deadlineNs) {
            // finishing the requests already submitted
        }
    }

    /** Stops every agent after the work already submitted, waiting up to 30 s for each. */
    @Override
    public void close() {
        running = false;
        threads.forEach(Thread::interrupt);
        try {
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
