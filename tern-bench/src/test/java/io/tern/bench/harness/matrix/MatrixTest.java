package io.tern.bench.harness.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MatrixTest {
    private static <C, E> List<String> labels(List<Matrix.Run<C, E>> runs) {
        return runs.stream()
                .map(r -> r.cell() + "/" + r.repeat() + "/" + r.entrant())
                .toList();
    }

    @Test
    void alternatingRunsEveryEntrantOncePerRepeatInTheGivenOrder() {
        assertThat(labels(Matrix.alternating(List.of("a", "b"), 2, List.of("x", "y"))))
                .containsExactly("a/1/x", "a/1/y", "a/2/x", "a/2/y", "b/1/x", "b/1/y", "b/2/x", "b/2/y");
    }

    @Test
    void alternatingLeavesOutWhatAnEntrantDoesNotRun() {
        assertThat(labels(Matrix.alternating(
                        List.of(1, 2), 1, List.of("x", "y"), (cell, e) -> cell == 1 || e.equals("x"))))
                .containsExactly("1/1/x", "1/1/y", "2/1/x");
    }

    @Test
    void rotatingStartsEachRoundWithTheNextEntrant() {
        assertThat(labels(Matrix.rotating(List.of("a", "b"), 3, List.of("x", "y", "z"))))
                .containsExactly(
                        "a/1/x", "a/1/y", "a/1/z", "b/1/x", "b/1/y", "b/1/z", "a/2/y", "a/2/z", "a/2/x", "b/2/y",
                        "b/2/z", "b/2/x", "a/3/z", "a/3/x", "a/3/y", "b/3/z", "b/3/x", "b/3/y");
    }
}
