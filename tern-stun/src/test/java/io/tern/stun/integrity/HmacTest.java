package io.tern.stun.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** {@link Hmac} against the JDK's {@code Mac}, on keys around the 64-byte block and inputs fed in pieces. */
class HmacTest {
    private final Hmac sha1 = new Hmac("SHA-1");
    private final Hmac sha256 = new Hmac("SHA-256");

    @Property
    void matchesTheJdk(
            @ForAll @Size(max = 150) byte[] key,
            @ForAll @Size(max = 300) byte[] input,
            @ForAll @IntRange(max = 300) int split,
            @ForAll @IntRange(min = 1, max = 40) int outLength)
            throws Exception {
        int cut = Math.min(split, input.length);
        for (Hmac hmac : new Hmac[] {sha1, sha256}) {
            byte[] expected = jdkMac(hmac == sha1 ? "HmacSHA1" : "HmacSHA256", key, input);
            byte[] out = new byte[outLength];
            hmac.start(key);
            hmac.update(input, 0, cut);
            hmac.update(input, cut, input.length - cut);
            hmac.finish(out);
            int n = Math.min(outLength, expected.length);
            assertThat(Arrays.copyOf(out, n)).isEqualTo(Arrays.copyOf(expected, n));
        }
    }

    private static byte[] jdkMac(String algorithm, byte[] key, byte[] input) throws Exception {
        Mac mac = Mac.getInstance(algorithm);
        // SecretKeySpec rejects an empty key; HMAC pads {0} to the same block.
        mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, algorithm));
        return mac.doFinal(input);
    }
}
