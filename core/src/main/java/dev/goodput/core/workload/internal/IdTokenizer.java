package dev.goodput.core.workload.internal;

import dev.goodput.core.internal.WordList;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A tokenizer with token ids: builds exact-count text by encoding pseudo-words, cutting the ids at the count
 * still needed, decoding, and correcting the cut until the whole text re-encodes to exactly the count asked for
 * (a cut can split a word whose pieces re-encode differently, or merge across the prefix boundary).
 */
public abstract class IdTokenizer implements Tokenizer {

    private static final int MAX_CORRECTIONS = 32;

    /** Returns the token ids of {@code text}. */
    protected abstract int[] encode(String text);

    /** Returns the text of the token ids. */
    protected abstract String decode(int[] ids);

    @Override
    public int count(String text) {
        return encode(text).length;
    }

    @Override
    public String extend(String prefix, SplittableRandom random, int totalTokens) {
        int prefixTokens = count(prefix);
        int need = totalTokens - prefixTokens;
        if (need < 0) {
            throw new IllegalArgumentException(
                    "the prefix has " + prefixTokens + " tokens, more than the " + totalTokens + " asked for");
        }
        if (need == 0) {
            return prefix;
        }
        String separator = prefix.isEmpty() ? "" : " ";
        int[] ids = encode(separator + WordList.randomWords(random, need + 8));
        while (ids.length < need + 8) {
            ids = encode(separator + WordList.randomWords(random, 2 * need + 8));
        }
        int cut = need;
        for (int attempt = 0; attempt < MAX_CORRECTIONS; attempt++) {
            String candidate = prefix + decode(Arrays.copyOf(ids, cut));
            int counted = count(candidate);
            if (counted == totalTokens) {
                return candidate;
            }
            // Move the cut by the error, but at least one id so an oscillation still explores.
            int step = totalTokens - counted;
            cut = Math.max(1, Math.min(ids.length, cut + step));
        }
        throw new IllegalStateException("could not build text of exactly " + totalTokens + " tokens for " + name()
                + " after " + MAX_CORRECTIONS + " corrections");
    }
}
