package io.tern.websocket.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

class CodecPoolTest {
    @Test
    void returnedCodecsAreLentAgainUpToTheBoundAndTheRestAreEnded() {
        CodecPool pool = new CodecPool(6, 1);
        Deflater first = pool.acquireDeflater(false);
        Deflater second = pool.acquireDeflater(false);
        assertThat(pool.deflatersInUse()).isEqualTo(2);
        pool.releaseDeflater(first, false);
        pool.releaseDeflater(second, false);
        assertThat(pool.deflatersInUse()).isZero();
        assertThat(pool.acquireDeflater(false)).isSameAs(first);
        assertThat(pool.acquireDeflater(false)).as("only one was kept").isNotSameAs(second);
        assertThat(pool.acquireDeflater(true))
                .as("Huffman-only deflaters are kept apart")
                .isNotSameAs(first);

        Inflater inflater = pool.acquireInflater();
        pool.releaseInflater(inflater);
        assertThat(pool.acquireInflater()).isSameAs(inflater);
        assertThat(pool.inflatersInUse()).isEqualTo(1);
    }
}
