package io.tern.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RedisAddressTest {
    @Test
    void hostPortAndDatabase() {
        RedisAddress a = RedisAddress.parse("redis://10.0.0.5:6380/3");
        assertThat(a.host()).isEqualTo("10.0.0.5");
        assertThat(a.port()).isEqualTo(6380);
        assertThat(a.database()).isEqualTo(3);
        assertThat(a.tls()).isFalse();
        assertThat(a.password()).isNull();
    }

    @Test
    void defaultPortTlsAndIpv6() {
        assertThat(RedisAddress.parse("redis://cache.internal").port()).isEqualTo(6379);
        RedisAddress v6 = RedisAddress.parse("rediss://[::1]:6390");
        assertThat(v6.tls()).isTrue();
        assertThat(v6.host()).isEqualTo("::1");
        assertThat(v6.toString()).isEqualTo("rediss://[::1]:6390");
    }

    @Test
    void passwordIsParsedAndNeverPrinted() {
        RedisAddress a = RedisAddress.parse("redis://:s3cr%40t@127.0.0.1:6379");
        assertThat(a.password()).isEqualTo("s3cr@t");
        assertThat(a.user()).isNull();
        assertThat(a.toString()).doesNotContain("s3cr").contains(":***@");

        RedisAddress acl = RedisAddress.parse("redis://tern:pw@127.0.0.1:6379/1");
        assertThat(acl.user()).isEqualTo("tern");
        assertThat(acl.toString()).isEqualTo("redis://tern:***@127.0.0.1:6379/1");
    }

    @Test
    void garbageIsRefusedSayingWhy() {
        assertThatThrownBy(() -> RedisAddress.parse("localhost:6379")).hasMessageContaining("redis://");
        assertThatThrownBy(() -> RedisAddress.parse("http://127.0.0.1:6379")).hasMessageContaining("redis://");
        assertThatThrownBy(() -> RedisAddress.parse("redis://")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RedisAddress.parse("redis://h:6379/x")).hasMessageContaining("database 'x'");
        assertThatThrownBy(() -> RedisAddress.parse("redis://h:6379/99999999")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> RedisAddress.parse("redis://h:6379/?a=1")).hasMessageContaining("query");
        assertThatThrownBy(() -> RedisAddress.parse("redis://h h:1")).hasMessageContaining("not a URL");
        assertThatThrownBy(() -> RedisAddress.parse("redis://:pw@:6379"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("pw");
    }

    @Test
    void coturnsConnectionStringAndTheUrlFormAreBothTaken() {
        RedisAddress a =
                RedisAddress.parseCoturn("\"ip=10.0.0.5 dbname=2 password=s3cret port=6380 connect_timeout=30\"");
        assertThat(a.host()).isEqualTo("10.0.0.5");
        assertThat(a.port()).isEqualTo(6380);
        assertThat(a.database()).isEqualTo(2);
        assertThat(a.password()).isEqualTo("s3cret");
        assertThat(a.toString()).doesNotContain("s3cret");
        assertThat(RedisAddress.parseCoturn("dbname=1").host()).isEqualTo("127.0.0.1");
        assertThat(RedisAddress.parseCoturn("redis://cache:6390/4").database()).isEqualTo(4);
    }

    @Test
    void aBadConnectionStringSaysWhatIsWrongWithoutThePassword() {
        assertThatThrownBy(() -> RedisAddress.parseCoturn("ip=h port=99999")).hasMessageContaining("port 99999");
        assertThatThrownBy(() -> RedisAddress.parseCoturn("ip=h color=blue")).hasMessageContaining("'color'");
        assertThatThrownBy(() -> RedisAddress.parseCoturn("ip=h dbname=x")).hasMessageContaining("dbname 'x'");
        assertThatThrownBy(() -> RedisAddress.parseCoturn("password")).hasMessageNotContaining("password ");
    }
}
