package io.tern.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The kit's PostgreSQL: its own cluster on its own port, which survives a SIGKILL of the postmaster. */
class PostgresProcessTest {
    @Test
    void aClusterOfItsOwnThatComesBackAfterAKill() throws Exception {
        Path dir;
        try (PostgresProcess pg = PostgresProcess.start()) {
            assertThat(pg.psql("postgres", "SHOW port")).isEqualTo(Integer.toString(pg.port()));
            pg.createDatabase("kit");
            pg.psql("kit", "CREATE TABLE t(x int); INSERT INTO t VALUES (42)");
            long first = pg.pid();

            pg.kill();
            assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
            assertThatThrownBy(() -> pg.psql("kit", "SELECT 1")).hasMessageContaining("failed");

            pg.restart();
            assertThat(pg.pid()).isNotEqualTo(first);
            assertThat(pg.psql("kit", "SELECT x FROM t"))
                    .as("committed before the kill")
                    .isEqualTo("42");
            dir = Path.of(pg.psql("postgres", "SHOW data_directory")).getParent();
        }
        assertThat(Files.exists(dir))
                .as("the cluster's directory is deleted on close")
                .isFalse();
    }
}
