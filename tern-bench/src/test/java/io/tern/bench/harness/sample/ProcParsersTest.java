package io.tern.bench.harness.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ProcParsersTest {
    @Test
    void pssFromSmapsRollup() {
        String text = """
                55d0c0a00000-7ffd5b3fe000 ---p 00000000 00:00 0                          [rollup]
                Rss:               20480 kB
                Pss:                9180 kB
                Pss_Anon:           4000 kB
                """;
        assertThat(ProcessTree.parseRollupPssBytes(text)).isEqualTo(9180L * 1024);
        assertThat(ProcessTree.parseRollupPssBytes("Rss: 1 kB\n")).isEqualTo(-1);
    }

    @Test
    void openFilesLimit() {
        String limits = """
                Limit                     Soft Limit           Hard Limit           Units
                Max cpu time              unlimited            unlimited            seconds
                Max open files            20000                20000                files
                """;
        assertThat(ProcessTree.parseOpenFilesLimit(limits)).isEqualTo(20000);
        assertThat(ProcessTree.parseOpenFilesLimit("Max open files  unlimited  unlimited  files\n"))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(ProcessTree.parseOpenFilesLimit("nothing\n")).isEqualTo(-1);
    }

    @Test
    void machineCpuFromProcStat() {
        MachineCpu a = MachineCpu.parse("cpu  100 5 50 800 10 3 2 1 0 0\ncpu0 1 2 3\n");
        assertThat(a.busyTicks()).isEqualTo(100 + 5 + 50 + 3 + 2 + 1);
        assertThat(a.totalTicks()).isEqualTo(161 + 800 + 10);
        MachineCpu b = MachineCpu.parse("cpu  150 5 70 900 10 3 2 1 0 0\n");
        assertThat(b.busyFractionSince(a)).isCloseTo(70.0 / 170.0, within(1e-9));
        assertThat(a.busyFractionSince(a)).isNaN();
        assertThatThrownBy(() -> MachineCpu.parse("intr 1 2 3\n")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void threadTicksCountOnlyTheNamedThreadsOfTheTree() throws Exception {
        ProcessTree self = new ProcessTree(ProcessHandle.current().pid());
        assertThat(self.threadTicks("cpu-probe")).as("no such thread yet").isZero();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread busy = new Thread(
                () -> {
                    long x = 0;
                    while (!stop.get()) {
                        x += x * 31 + 7;
                    }
                    if (x == 42) {
                        System.out.println(x);
                    }
                },
                "cpu-probe-1");
        busy.start();
        try {
            long ticks = 0;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (ticks < 5 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
                ticks = self.threadTicks("no-such-thread", "cpu-probe");
            }
            assertThat(ticks)
                    .as("the busy thread's CPU, found by its name prefix")
                    .isGreaterThanOrEqualTo(5);
            assertThat(self.threadTicks("no-such-thread")).isZero();
        } finally {
            stop.set(true);
            busy.join(5_000);
        }
    }
}
