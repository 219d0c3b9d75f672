package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The mock server's tokenizer: a token is a maximal run of non-whitespace characters.
 *
 * <p>The rule is deliberately simple so that a client can reproduce {@code usage.prompt_tokens} exactly
 * without a real tokenizer:
 *
 * <ul>
 *   <li>{@code /v1/completions}: the tokens of {@code prompt} (for an array of strings, of the first string;
 *       for an array of token ids, one token per id).
 *   <li>{@code /v1/chat/completions}: for each message, the tokens of its text content plus {@value
 *       #TOKENS_PER_MESSAGE}; then {@value #TOKENS_PER_CHAT} more for the reply's priming (the overhead of a
 *       chat template, counted as in OpenAI's token counting cookbook).
 * </ul>
 *
 * <p>Each token also has a 64-bit hash of its text; equal prompt prefixes therefore give equal leading hashes,
 * which is what the simulated prefix cache keys on. The chat template's overhead tokens are {@code <|start|>},
 * the role and {@code <|message|>} before each message and {@code <|start|> assistant <|message|>} at the end,
 * so two chats sharing leading messages share a hash prefix too.
 *
 * <p>Generated text is one word per output token, each token's text being {@code " " + word}, so this rule
 * counts generated text exactly.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class WordTokenizer {

    /** Template tokens added for every chat message. */
    public static final int TOKENS_PER_MESSAGE = 3;

    /** Template tokens added once per chat, priming the assistant's reply. */
    public static final int TOKENS_PER_CHAT = 3;

    private static final String START = "<|start|>";
    private static final String MESSAGE = "<|message|>";

    private WordTokenizer() {}

    /** Returns the tokens of {@code text}: its maximal runs of non-whitespace characters, in order. */
    public static List<String> tokens(CharSequence text) {
        List<String> tokens = new ArrayList<>();
        int length = text.length();
        int i = 0;
        while (i < length) {
            while (i < length && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < length && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i > start) {
                tokens.add(text.subSequence(start, i).toString());
            }
        }
        return tokens;
    }

    /** Returns the number of tokens in {@code text}. */
    public static int count(CharSequence text) {
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

    /**
     * Returns the prompt tokens of a chat: the tokens of every message's text plus the template overhead.
     *
     * @param messageTexts each message's text content, in order
     */
    public static int countChat(List<? extends CharSequence> messageTexts) {
        int total = TOKENS_PER_CHAT;
        for (CharSequence text : messageTexts) {
            total += count(text) + TOKENS_PER_MESSAGE;
        }
        return total;
    }

    /** Returns one hash per token of {@code text}, in order. */
    public static long[] hashes(CharSequence text) {
        return tokens(text).stream().mapToLong(WordTokenizer::hash).toArray();
    }

    /**
     * Returns one hash per prompt token of a chat, template tokens included, in order.
     *
     * @param roles each message's role
     * @param messageTexts each message's text content, in the same order
     */
    public static long[] chatHashes(List<String> roles, List<? extends CharSequence> messageTexts) {
        if (roles.size() != messageTexts.size()) {
            throw new IllegalArgumentException(
                    "roles and messageTexts differ in size: " + roles.size() + " != " + messageTexts.size());
        }
        List<String> tokens = new ArrayList<>();
        for (int m = 0; m < roles.size(); m++) {
            tokens.add(START);
            tokens.add(roles.get(m));
            tokens.add(MESSAGE);
            tokens.addAll(tokens(messageTexts.get(m)));
        }
        tokens.add(START);
        tokens.add("assistant");
        tokens.add(MESSAGE);
        return tokens.stream().mapToLong(WordTokenizer::hash).toArray();
    }

    /** Returns the 64-bit hash of one token's text (FNV-1a over UTF-16 code units, then a finaliser). */
    public static long hash(CharSequence token) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < token.length(); i++) {
            h ^= token.charAt(i);
            h *= 0x100000001b3L;
        }
        // The finaliser spreads FNV's weak low bits so hashes can be bucketed by their low bits.
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }
}
