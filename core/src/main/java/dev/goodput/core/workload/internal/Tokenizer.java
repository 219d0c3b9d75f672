package dev.goodput.core.workload.internal;

import dev.goodput.core.workload.TokenCounter;
import java.util.SplittableRandom;

/**
 * A tokenizer implementation, behind the API's {@code PromptTokenizer}: the API type wraps one of these, so the
 * implementations never refer back to the API type and the two packages depend on each other one way only. The
 * methods mean what {@code PromptTokenizer}'s do. Safe to call from several threads.
 */
public interface Tokenizer extends TokenCounter {

    /** Returns the name recorded in the result, for example {@code "tiktoken:cl100k_base"}. */
    String name();

    /** Returns text that starts with {@code prefix} and counts exactly {@code totalTokens} tokens. */
    String extend(String prefix, SplittableRandom random, int totalTokens);
}
