package dev.goodput.mock.internal.engine;

/**
 * The engine's gauges and counters at one instant, named after the vLLM metrics they feed.
 *
 * @param running sequences in the running batch ({@code vllm:num_requests_running})
 * @param waiting sequences waiting for admission ({@code vllm:num_requests_waiting})
 * @param kvCacheUsage fraction of KV-cache blocks in use, 0 to 1 ({@code vllm:kv_cache_usage_perc})
 * @param prefixCacheQueries prompt tokens looked up in the prefix cache ({@code vllm:prefix_cache_queries})
 * @param prefixCacheHits prompt tokens found there ({@code vllm:prefix_cache_hits})
 * @param preemptions sequences preempted so far ({@code vllm:num_preemptions})
 * @param promptTokens prompt tokens processed so far ({@code vllm:prompt_tokens})
 * @param generationTokens tokens generated so far ({@code vllm:generation_tokens})
 * @param steps engine steps taken so far
 * @param busyNanos the engine's steps' total duration so far: the time its simulated GPU was busy
 */
public record EngineSnapshot(
        int running,
        int waiting,
        double kvCacheUsage,
        long prefixCacheQueries,
        long prefixCacheHits,
        long preemptions,
        long promptTokens,
        long generationTokens,
        long steps,
        long busyNanos) {

    /** Returns this snapshot with {@code more} generations added to the waiting ones. */
    public EngineSnapshot withMoreWaiting(long more) {
        if (more <= 0) {
            return this;
        }
        return new EngineSnapshot(
                running,
                waiting + (int) more,
                kvCacheUsage,
                prefixCacheQueries,
                prefixCacheHits,
                preemptions,
                promptTokens,
                generationTokens,
                steps,
                busyNanos);
    }
}
