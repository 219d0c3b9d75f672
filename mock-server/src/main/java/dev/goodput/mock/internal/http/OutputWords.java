package dev.goodput.mock.internal.http;

import java.nio.charset.StandardCharsets;

/**
 * The generated text: output token {@code i} of a request with seed {@code s} is {@code " " + word}, the word
 * picked from a fixed list by a hash of {@code (s, i)}. Words are plain lower-case ASCII, so they never need JSON
 * escaping and each is exactly one token by {@link dev.goodput.mock.WordTokenizer}'s rule.
 */
public final class OutputWords {

    private static final String[] WORDS = (""
                    + "the of and to in is that it for was on are as with be at by this have from or one had not "
                    + "but what all were when we there can an your which their said if do will each about how up "
                    + "out them then she many some so these would other into has more her two like him see time "
                    + "could no make than first been its who now people my made over did down only way find use "
                    + "may water long little very after words called just where most know get through back much "
                    + "before go good new write our used me man too any day same right look think also around "
                    + "another came come work three word must because does part even place well such here take "
                    + "why things help put years different away again off went old number great tell men say "
                    + "small every found still between name should home big give air line set own under read "
                    + "last never us left end along while might next sound below saw something thought both few "
                    + "those always looked show large often together asked house world going want school important "
                    + "until form food keep children feet land side without boy once animals life enough took "
                    + "sometimes four head above kind began almost live page got earth need far hand high year "
                    + "mother light parts country father let night following picture being study second eyes "
                    + "soon times story boys since white days ever paper hard near sentence better best across")
            .split(" ");

    /** Each word as UTF-8 bytes with its leading space, so chunk encoding copies bytes instead of encoding. */
    private static final byte[][] TOKEN_BYTES = new byte[WORDS.length][];

    static {
        for (int i = 0; i < WORDS.length; i++) {
            TOKEN_BYTES[i] = (" " + WORDS[i]).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private OutputWords() {}

    /** Returns the text of output token {@code index} of a request seeded with {@code seed}. */
    public static String token(long seed, int index) {
        return " " + WORDS[pick(seed, index)];
    }

    /** Returns the UTF-8 bytes of {@link #token}; callers must not modify the array. */
    static byte[] tokenBytes(long seed, int index) {
        return TOKEN_BYTES[pick(seed, index)];
    }

    /** Returns the text of output tokens {@code from} (inclusive) to {@code to} (exclusive). */
    public static String text(long seed, int from, int to) {
        StringBuilder text = new StringBuilder((to - from) * 6);
        for (int i = from; i < to; i++) {
            text.append(' ').append(WORDS[pick(seed, i)]);
        }
        return text.toString();
    }

    static int wordCount() {
        return WORDS.length;
    }

    private static int pick(long seed, int index) {
        long h = seed * 0x9e3779b97f4a7c15L + index;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) WORDS.length);
    }
}
