package io.tern.bench.origin.load;

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
}
