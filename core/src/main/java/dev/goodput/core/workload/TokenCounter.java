package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Counts the tokens of generated text on the client, for servers that send no usage and for comparing the
 * server's count with the client's. Must be safe to call from several threads.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface TokenCounter {

    /** Returns the number of tokens in {@code text}. */
    int count(String text);
}
