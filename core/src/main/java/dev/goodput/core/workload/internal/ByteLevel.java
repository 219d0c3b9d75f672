package dev.goodput.core.workload.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** GPT-2's byte-to-character mapping: every byte becomes a printable character, so BPE works on bytes. */
final class ByteLevel {

    private static final char[] BYTE_TO_CHAR = new char[256];
    private static final int[] CHAR_TO_BYTE = new int[512];

    static {
        java.util.Arrays.fill(CHAR_TO_BYTE, -1);
        int next = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = printable ? (char) b : (char) (256 + next++);
            BYTE_TO_CHAR[b] = c;
            CHAR_TO_BYTE[c] = b;
        }
    }

    private ByteLevel() {}

    /** Returns the UTF-8 bytes of {@code text}, each mapped to its character. */
    static String encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            out.append(BYTE_TO_CHAR[b & 0xFF]);
        }
        return out.toString();
    }

    /** Reverses {@link #encode}; characters outside the mapping are kept as their UTF-8 bytes. */
    static String decode(String symbols) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(symbols.length());
        for (int i = 0; i < symbols.length(); i++) {
            char c = symbols.charAt(i);
            int b = c < CHAR_TO_BYTE.length ? CHAR_TO_BYTE[c] : -1;
            if (b >= 0) {
                bytes.write(b);
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
