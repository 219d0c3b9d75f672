package dev.goodput.core.internal;

import java.util.SplittableRandom;

/**
 * Pronounceable pseudo-words for synthetic prompts: two or three consonant-vowel syllables, 1,890 entries. Generated rather than taken from a dictionary so that no word list has to be shipped or licensed.
 */
public final class WordList {

    private static final String CONSONANTS = "bdfgklmnprstvz";
    private static final String VOWELS = "aeiou";
    private static final String[] WORDS = buildWords();

    private WordList() {}

    /** Returns the number of distinct words. */
    public static int size() {
        return WORDS.length;
    }

    /** Returns {@code count} words drawn uniformly with the given random source, separated by single spaces. */
    public static String randomWords(SplittableRandom random, int count) {
        StringBuilder text = new StringBuilder(count * 7);
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }

    private static String[] buildWords() {
        int syllables = CONSONANTS.length() * VOWELS.length();
        String[] syllable = new String[syllables];
        for (int c = 0; c < CONSONANTS.length(); c++) {
            for (int v = 0; v < VOWELS.length(); v++) {
                syllable[c * VOWELS.length() + v] = "" + CONSONANTS.charAt(c) + VOWELS.charAt(v);
            }
        }
        // 70 x 27 two- and three-syllable words: varied enough that prompts rarely share a prefix by chance.
        String[] words = new String[syllables * 27];
        int next = 0;
        for (int first = 0; first < syllables; first++) {
            for (int second = 0; second < 27; second++) {
                String word = syllable[first] + syllable[(first + second * 7 + 1) % syllables];
                words[next++] = second % 3 == 0 ? word + syllable[(first * 3 + second) % syllables] : word;
            }
        }
        return words;
    }
}
