package io.tern.netty.stream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the PEM files coturn takes ({@code cert}, {@code pkey}) and checks that they belong together. */
final class PemFiles {
    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"};
    /** DER of AlgorithmIdentifier { rsaEncryption, NULL }. */
    private static final byte[] RSA_ALGORITHM_IDENTIFIER = {
        0x30, 0x0D, 0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00
    };

    private PemFiles() {}

    static X509Certificate[] certificates(Path file) throws IOException, GeneralSecurityException {
        byte[] pem = Files.readAllBytes(file);
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<X509Certificate> chain = new ArrayList<>();
        for (Certificate certificate : factory.generateCertificates(new ByteArrayInputStream(pem))) {
            chain.add((X509Certificate) certificate);
        }
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no certificate in " + file);
        }
        return chain.toArray(new X509Certificate[0]);
    }

    static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
        Matcher block = BLOCK.matcher(Files.readString(file, StandardCharsets.US_ASCII));
        while (block.find()) {
            String type = block.group(1);
            byte[] der = Base64.getMimeDecoder().decode(block.group(2));
            if (type.equals("PRIVATE KEY")) {
                return pkcs8(der, file);
            }
            if (type.equals("RSA PRIVATE KEY")) {
                return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(wrapPkcs1Rsa(der)));
            }
            if (type.equals("ENCRYPTED PRIVATE KEY") || type.equals("EC PRIVATE KEY")) {
                throw new GeneralSecurityException(file + ": '" + type + "' keys are not supported;"
                        + " convert with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
            }
        }
        throw new GeneralSecurityException("no PEM private key in " + file);
    }

    private static PrivateKey pkcs8(byte[] der, Path file) throws GeneralSecurityException {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                // try the next algorithm
            }
        }
        throw new GeneralSecurityException("unsupported private key algorithm in " + file);
    }

    /** PKCS#8 PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING pkcs1 }. */
    private static byte[] wrapPkcs1Rsa(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM_IDENTIFIER);
        body.write(0x04);
        writeDerLength(body, pkcs1.length);
        body.writeBytes(pkcs1);
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        info.write(0x30);
        writeDerLength(info, body.size());
        info.writeBytes(body.toByteArray());
        return info.toByteArray();
    }

    private static void writeDerLength(ByteArrayOutputStream out, int length) {
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else if (length < 0x10000) {
            out.write(0x82);
            out.write(length >> 8);
            out.write(length);
        } else {
            out.write(0x83);
            out.write(length >> 16);
            out.write(length >> 8);
            out.write(length);
        }
    }

    /** Fails unless {@code key} signs what the certificate's public key verifies. */
    static void checkKeyMatches(PrivateKey key, X509Certificate certificate) throws GeneralSecurityException {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null;
        };
        if (algorithm == null) {
            return;
        }
        byte[] probe = "tern certificate check".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        PublicKey publicKey = certificate.getPublicKey();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(publicKey);
        verifier.update(probe);
        if (!verifier.verify(signature)) {
            throw new GeneralSecurityException(
                    "the private key does not match the certificate " + certificate.getSubjectX500Principal());
        }
    }
}
