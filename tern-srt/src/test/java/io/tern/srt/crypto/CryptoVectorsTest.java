package io.tern.srt.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CryptoVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] hex(String s) {
        return HEX.parseHex(s.replace(" ", ""));
    }

    @Test
    void rfc3394Section41Wrap128KeyWith128Kek() throws Exception {
        byte[] kek = hex("000102030405060708090A0B0C0D0E0F");
        byte[] key = hex("00112233445566778899AABBCCDDEEFF");
        byte[] wrapped = KeyWrap.wrap(kek, key);
        assertThat(HEX.formatHex(wrapped)).isEqualToIgnoringCase("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5");
        assertThat(KeyWrap.unwrap(kek, wrapped, 0, wrapped.length)).isEqualTo(key);
    }

    @Test
    void rfc3394Section42Wrap128KeyWith192Kek() {
        byte[] kek = hex("000102030405060708090A0B0C0D0E0F1011121314151617");
        byte[] wrapped = KeyWrap.wrap(kek, hex("00112233445566778899AABBCCDDEEFF"));
        assertThat(HEX.formatHex(wrapped)).isEqualToIgnoringCase("96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D");
    }

    @Test
    void rfc3394Section46Wrap256KeyWith256Kek() {
        byte[] kek = hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F");
        byte[] key = hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F");
        assertThat(HEX.formatHex(KeyWrap.wrap(kek, key)))
                .isEqualToIgnoringCase(
                        "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21");
    }

    @Test
    void unwrapUnderAnotherKekIsABadSecret() {
        byte[] wrapped = KeyWrap.wrap(new byte[16], new byte[16]);
        byte[] other = new byte[16];
        other[0] = 1;
        assertThatThrownBy(() -> KeyWrap.unwrap(other, wrapped, 0, wrapped.length))
                .isInstanceOfSatisfying(
                        SrtCryptoException.class, e -> assertThat(e.badSecret()).isTrue());
    }

    @Test
    void pbkdf2HmacSha1MatchesRfc6070() {
        assertThat(HEX.formatHex(PassphraseKdf.pbkdf2("password", "salt".getBytes(), 1, 20)))
                .isEqualTo("0c60c80f961f0e71f3a9b524af6012062fe037a6");
        assertThat(HEX.formatHex(PassphraseKdf.pbkdf2("password", "salt".getBytes(), 4096, 20)))
                .isEqualTo("4b007901b765489abead49d926f721d065a429c1");
    }

    @Test
    void kekUsesTheSaltsLastEightBytesAnd2048Iterations() {
        byte[] salt = hex("00112233445566778899AABBCCDDEEFF");
        byte[] expected = PassphraseKdf.pbkdf2("passphrase-1234", hex("8899AABBCCDDEEFF"), 2048, 24);
        assertThat(PassphraseKdf.kek("passphrase-1234", salt, 24)).isEqualTo(expected);
        salt[0] ^= 1;
        assertThat(PassphraseKdf.kek("passphrase-1234", salt, 24))
                .as("the first 8 bytes do not count")
                .isEqualTo(expected);
    }

    @Test
    void ctrKeystreamMatchesOpensslWithLibsrtsCounterLayout() {
        // openssl enc -aes-128-ctr -K 000102..0f -iv (salt[0..13] XOR (0^10 | pki)) || 0000, on zeros:
        // pki 0x12345678 at bytes 10..13, the block counter in bytes 14..15 (HaiCrypt hcrypt_SetCtrIV).
        CtrCipher c = new CtrCipher(hex("000102030405060708090a0b0c0d0e0f"), hex("101112131415161718191a1b1c1d1e1f"));
        byte[] data = new byte[40];
        c.apply(0x12345678, data, 0, data.length);
        assertThat(HEX.formatHex(data))
                .isEqualTo("8c6fd60656904dfa99122f2b060aceb338462c6de74709493e2814d01526c159c2ea2a25bd46cba6");
        c.apply(0x12345678, data, 0, data.length);
        assertThat(data).isEqualTo(new byte[40]);
    }

    @Test
    void keyMaterialRoundTripsEvenAndOddKeys() throws Exception {
        Random r = new Random(7);
        byte[] salt = new byte[16];
        byte[] even = new byte[32];
        byte[] odd = new byte[32];
        r.nextBytes(salt);
        r.nextBytes(even);
        r.nextBytes(odd);
        byte[] encoded = KeyMaterial.create("correct horse", salt, even, odd).encode();
        assertThat(encoded).hasSize(16 + 16 + 8 + 64);
        assertThat(encoded[3]).isEqualTo((byte) 3);
        KeyMaterial km = KeyMaterial.parse(encoded, 0, encoded.length);
        byte[][] keys = km.unwrap("correct horse");
        assertThat(keys[0]).isEqualTo(even);
        assertThat(keys[1]).isEqualTo(odd);
        assertThatThrownBy(() -> km.unwrap("wrong horse!"))
                .isInstanceOfSatisfying(
                        SrtCryptoException.class, e -> assertThat(e.badSecret()).isTrue());
    }

    @Test
    void senderRefreshAnnouncesSwitchesAndWithdrawsKeys() throws Exception {
        SendKeys tx = new SendKeys("refresh-pass", 16, 100, 10, new Random(3));
        ReceiveKeys rx = new ReceiveKeys("refresh-pass");
        rx.install(tx.initialMaterial());
        byte[] plain = "seven TS packets".getBytes();
        int flipsSeen = 0;
        int lastKk = 1;
        for (int seq = 0; seq < 400; seq++) {
            byte[] p = plain.clone();
            int kk = tx.encrypt(seq, p, 0, p.length);
            KeyMaterial ann = tx.announcement();
            if (ann != null) {
                byte[] m = ann.encode();
                rx.install(KeyMaterial.parse(m, 0, m.length));
                tx.confirmed(m, 0, m.length);
                assertThat(tx.announcement()).isNull();
            }
            assertThat(rx.decrypt(kk, seq, p, 0, p.length)).isTrue();
            assertThat(p).isEqualTo(plain);
            if (kk != lastKk) {
                flipsSeen++;
                lastKk = kk;
            }
        }
        assertThat(tx.keySwitches()).isEqualTo(4);
        assertThat(flipsSeen).isEqualTo(4);
    }
}
