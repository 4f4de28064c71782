package io.tern.srt.receiver;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.srt.packet.LossReport;
import io.tern.srt.packet.SeqNo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LossListTest {
    @Test
    void appendRemoveSplitAndEncode() {
        LossList l = new LossList(8);
        l.append(10, 14);
        l.append(20, 20);
        assertThat(l.packets()).isEqualTo(6);
        assertThat(l.remove(12)).isTrue();
        assertThat(l.ranges()).isEqualTo(3);
        assertThat(l.remove(12)).isFalse();
        byte[] b = new byte[64];
        int n = l.encode(b, 0, 64);
        List<int[]> ranges = new ArrayList<>();
        LossReport.read(b, 0, n, (f, t) -> ranges.add(new int[] {f, t}));
        assertThat(ranges).containsExactly(new int[] {10, 11}, new int[] {13, 14}, new int[] {20, 20});
        assertThat(l.removeBefore(14)).isEqualTo(3);
        assertThat(l.firstSeq()).isEqualTo(14);
        assertThat(l.packets()).isEqualTo(2);
    }

    @Test
    void rangesAcrossTheSequenceWrap() {
        LossList l = new LossList(4);
        l.append(SeqNo.MAX - 1, 1);
        assertThat(l.packets()).isEqualTo(4);
        assertThat(l.contains(0)).isTrue();
        assertThat(l.remove(SeqNo.MAX)).isTrue();
        assertThat(l.removeBefore(1)).isEqualTo(2);
        assertThat(l.firstSeq()).isEqualTo(1);
    }

    @Test
    void aFullListRefusesRatherThanGrows() {
        LossList l = new LossList(2);
        assertThat(l.append(1, 1)).isTrue();
        assertThat(l.append(3, 3)).isTrue();
        assertThat(l.append(5, 5)).isFalse();
        assertThat(l.ranges()).isEqualTo(2);
    }

    @Test
    void timestampsUnwrapAcrossTheirWrap() {
        Tsbpd t = new Tsbpd(0, 0);
        assertThat(t.unwrap(0xFFFF_FFF0)).isEqualTo(0xFFFF_FFF0L);
        assertThat(t.unwrap(0x10)).isEqualTo(0x1_0000_0010L);
        assertThat(t.unwrap(0xFFFF_FFFF)).as("late, from before the wrap").isEqualTo(0xFFFF_FFFFL);
    }
}
