package dev.goodput.core.workload.internal;

import dev.goodput.core.internal.WordList;
import java.util.SplittableRandom;

/** The simulated server's rule: a token is a maximal run of non-whitespace characters. */
public final class SimulatedTokenizer implements Tokenizer {

    public static final SimulatedTokenizer INSTANCE = new SimulatedTokenizer();

    private SimulatedTokenizer() {}

    @Override
    public String name() {
        return "simulated";
    }

    @Override
    public int count(String text) {
        int count = 0;
        boolean inToken = false;
        for (int i = 0; i < text.length(); i++) {
            boolean whitespace = Character.isWhitespace(text.charAt(i));
            if (!whitespace && !inToken) {
                count++;
            }
            inToken = !whitespace;
        }
        return count;
    }

    @Override
    public String extend(String prefix, SplittableRandom random, int totalTokens) {
        int need = totalTokens - count(prefix);
        if (need < 0) {
            throw new IllegalArgumentException(
                    "the prefix has " + count(prefix) + " tokens, more than the " + totalTokens + " asked for");
        }
        if (need == 0) {
            return prefix;
        }
        String words = WordList.randomWords(random, need);
        return prefix.isEmpty() ? words : prefix + " " + words;
    }
}
