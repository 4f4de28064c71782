package io.tern.bench.harness.sample;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcStatsTest {
    @Test
    void cpuTicksAreUtimePlusStimeEvenWithAwkwardComm() {
        String stat = "4242 (turn server) (x)) S 1 4242 4242 0 -1 4194560 1203 0 0 0 345 67 0 0 20 0 5 0 "
                + "79252 3133440 359 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
        assertThat(ProcStats.parseCpuTicks(stat)).isEqualTo(345 + 67);
        assertThat(ProcStats.parseSystemCpuTicks(stat)).isEqualTo(67);
    }

    @Test
    void vmRssInBytes() {
        String status = """
                Name:\tturnserver
                State:\tS (sleeping)
                VmPeak:\t  812344 kB
                VmRSS:\t    7408 kB
                RssAnon:\t    1234 kB
                Threads:\t5
                """;
        assertThat(ProcStats.parseVmRssBytes(status)).isEqualTo(7408L * 1024);
        assertThat(ProcStats.parseVmRssBytes("Name:\tzombie\nState:\tZ\n")).isEqualTo(-1);
    }

    @Test
    void socketInodesFromFdLinksAndNetUdp() {
        assertThat(ProcStats.parseSocketInode("socket:[98765]")).isEqualTo(98765);
        assertThat(ProcStats.parseSocketInode("/dev/null")).isEqualTo(-1);
        assertThat(ProcStats.parseSocketInode("anon_inode:[eventpoll]")).isEqualTo(-1);
        String udp = """
                   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
                  123: 0100007F:0D96 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 55501 2 0000000000000000 0
                  456: 0100007F:C350 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 55502 2 0000000000000000 0
                """;
        assertThat(ProcStats.parseNetUdpInodes(udp)).containsExactlyInAnyOrder(55501L, 55502L);
    }

    @Test
    void readsOwnProcess() {
        long pid = ProcessHandle.current().pid();
        assertThat(ProcStats.rssBytes(pid)).isPositive();
        assertThat(ProcStats.cpuTicks(pid)).isPositive();
        assertThat(ProcStats.comm(pid)).isNotEmpty();
    }
}
