package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The timing and capacity of the simulated server: when it produces tokens, and how many sequences and KV-cache
 * tokens it holds.
 *
 * <p>A model is immutable; each {@code withX} method returns a copy. The named {@linkplain #preset presets} pair
 * real hardware with a real model and derive their step times from the roofline (see {@link #preset} and
 * {@link ModelPredictions#stepNanos}); {@link #fixed} and {@link #singleSlot} have constant costs and are exact,
 * for tests.
 *
 * <p>{@link ModelPredictions} computes what a model implies (step durations, its knee, its saturation throughput)
 * with the same functions the engine charges.
 *
 * <p>Longer than 300 lines because it is one immutable value of some thirty settings, as vLLM's engine arguments
 * are, each with its documented copy method or accessor: split, one configuration would be spread over several
 * types a user has to learn, while the parts with a job of their own (presets, validation, predictions) already
 * live in their own classes.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PerformanceModel {

    /** How the engine schedules generations under this model. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public enum Mode {
        /** No batching: every generation runs on its own timer with constant TTFT and TPOT, capacity unlimited. */
        FIXED,
        /** A vLLM-like step loop: continuous batching, chunked prefill, KV-cache blocks, prefix cache. */
        CONTINUOUS_BATCHING
    }

    /** What {@link #withUtilization} appends to the name, up to the figures; a second call replaces the first's. */
    private static final String UTILIZATION_SUFFIX = " (MBU ";

    private final PerformanceModelSettings settings;

    PerformanceModel(PerformanceModelSettings settings) {
        settings.validate();
        this.settings = settings;
    }

    /**
     * Returns the named preset. The hardware presets pair a GPU with Llama-3-8B and derive their step times from
     * the roofline.
     *
     * <p>Llama-3-8B (8.03 B parameters; 32 layers, 32 query heads, 8 KV heads, head dimension 128) in bf16:
     * weights W = 2 * 8.03e9 = 16.06 GB, read once per step; KV = 2 (K, V) * 32 layers * 8 heads * 128 * 2 bytes =
     * 128 KiB per token; attention = 4 * 32 layers * 4096 = 524,288 FLOPs per (query, key) pair. A step costs
     * {@code max((W + KV read) / (BW * MBU), (2 * P * tokens + attention) / (F * MFU)) + 1 ms}, with MBU 0.75
     * (well-tuned decode kernels reach 0.6-0.85) and MFU 0.5 for prefill. KV capacity is vLLM's: memory * 0.9
     * ({@code gpu_memory_utilization}) minus weights minus activations, CUDA graphs and allocator slack.
     *
     * <ul>
     *   <li>{@code h100-llama3-8b} (default): H100 SXM, 3.35 TB/s, 989 TFLOP/s. 72 GiB - 15 GiB weights - ~7 GiB =
     *       50 GiB = 409,600 tokens. vLLM V1 defaults on large non-A100 GPUs: max_num_seqs 1024,
     *       max_num_batched_tokens 8192. Decode step 7.4 ms at batch 1 (1k context), 14 ms at 64 x 2k, 35 ms at
     *       256 x 2k (beyond the cache); prefill of 2,048 tokens 69 ms.
     *   <li>{@code a100-llama3-8b}: A100 80 GB SXM, 2.04 TB/s, 312 TFLOP/s; same 409,600-token cache; vLLM's A100
     *       defaults max_num_seqs 256, max_num_batched_tokens 2048. Decode step 11.6 ms at batch 1.
     *   <li>{@code l4-llama3-8b}: L4, 24 GB, 300 GB/s, 121 TFLOP/s. 20.1 GiB - 15 GiB - ~2.4 GiB = 2.66 GiB =
     *       21,776 tokens, so about 20 sequences of 1k context fill it: the knee comes early. Defaults 256 / 2048.
     *       Decode step 73 ms at batch 1.
     *   <li>{@code tiny-test}: a fictional 0.5 B model (1 GB of weights, 256 KiB of KV per token) on a 100 GB/s,
     *       10 TFLOP/s device at full utilisation, with 8 sequences, 4,096 KV tokens, a 512-token step budget and
     *       max model length 2,048: steps of 11-22 ms, saturated at about 600 tokens/s (9 requests/s of 64 + 64
     *       tokens), within reach of a laptop.
     *   <li>{@code fixed}: 50 ms TTFT, 10 ms TPOT, unlimited capacity, no batching.
     *   <li>{@code single-slot}: one sequence at a time, 100 ms TTFT, 20 ms TPOT, exact.
     * </ul>
     *
     * @throws IllegalArgumentException if no preset has that name; the message lists the known names
     */
    public static PerformanceModel preset(String name) {
        return new PerformanceModel(PerformanceModelPresets.byName(name));
    }

    /** Returns the names of the presets, the default ({@code h100-llama3-8b}) first. */
    public static Set<String> presetNames() {
        return PerformanceModelPresets.names();
    }

    /** Returns the default preset, {@code h100-llama3-8b}. */
    public static PerformanceModel defaultModel() {
        return preset(PerformanceModelPresets.DEFAULT);
    }

    /**
     * Returns a model with no batching and unlimited capacity: every generation's first token comes {@code ttft}
     * after its arrival, and each further emission {@code tpot} after the previous one, however many run at once.
     * Of the capacity settings, only {@link #withMaxNumSeqs} (a limit on concurrent generations, the others
     * queueing FCFS) and {@link #withMaxModelLen} apply in fixed mode.
     */
    public static PerformanceModel fixed(Duration ttft, Duration tpot) {
        return new PerformanceModel(PerformanceModelSettings.fixed("fixed", ttft.toNanos(), tpot.toNanos()));
    }

    /**
     * Returns a model that runs one sequence at a time with constant costs: a generation that starts on an idle
     * engine gets its first token exactly {@code ttft} after arrival and each further emission exactly {@code tpot}
     * later; the next generation waits (FCFS) until the previous one has finished.
     */
    public static PerformanceModel singleSlot(Duration ttft, Duration tpot) {
        return new PerformanceModel(PerformanceModelSettings.singleSlot("single-slot", ttft.toNanos(), tpot.toNanos()));
    }

    /**
     * Returns a copy with at most {@code maxNumSeqs} sequences in the running batch (vLLM {@code --max-num-seqs});
     * in fixed mode, at most that many generations at once.
     */
    public PerformanceModel withMaxNumSeqs(int maxNumSeqs) {
        return with(s -> s.maxNumSeqs = maxNumSeqs);
    }

    /** Returns a copy whose KV cache holds {@code kvCacheTokens} tokens, in whole blocks (not in fixed mode). */
    public PerformanceModel withKvCacheTokens(long kvCacheTokens) {
        return with(s -> s.kvCacheTokens = kvCacheTokens);
    }

    /**
     * Returns a copy with a per-step token budget of {@code maxNumBatchedTokens}, decodes plus prefill chunks (not in
     * fixed mode).
     */
    public PerformanceModel withMaxNumBatchedTokens(int maxNumBatchedTokens) {
        return with(s -> s.maxNumBatchedTokens = maxNumBatchedTokens);
    }

    /** Returns a copy with a context limit (prompt plus output) of {@code maxModelLen} tokens. */
    public PerformanceModel withMaxModelLen(int maxModelLen) {
        return with(s -> s.maxModelLen = maxModelLen);
    }

    /** Returns a copy with automatic prefix caching on or off; vLLM has it on by default (not in fixed mode). */
    public PerformanceModel withPrefixCaching(boolean prefixCaching) {
        return with(s -> s.prefixCaching = prefixCaching);
    }

    /**
     * Returns a copy that produces {@code tokensPerChunk} tokens per decode step, as speculative decoding does when
     * every draft is accepted, and emits them together. A roofline step then costs a
     * tenth more per extra token (drafting); constant-cost models keep their TPOT per
     * emission. To group tokens without producing them faster, use {@link #withStreamInterval}.
     */
    public PerformanceModel withTokensPerChunk(int tokensPerChunk) {
        return with(s -> s.tokensPerChunk = tokensPerChunk);
    }

    /**
     * Returns a copy that sends generated tokens in groups of {@code streamInterval}, as vLLM's
     * {@code --stream-interval} does: tokens are produced at the same rate, but each emission (stream chunk) waits
     * until that many have accumulated; the first token goes out alone at once and the last group may be shorter.
     */
    public PerformanceModel withStreamInterval(int streamInterval) {
        return with(s -> s.streamInterval = streamInterval);
    }

    /**
     * Returns a copy whose step times (or, in fixed mode, emission intervals) are scaled by a seeded uniform
     * factor in {@code [1 - fraction, 1 + fraction]}; 0 turns jitter off.
     */
    public PerformanceModel withJitter(double fraction) {
        return with(s -> s.jitter = fraction);
    }

    /** Returns a copy whose random draws (output lengths, jitter) are seeded with {@code seed}. */
    public PerformanceModel withSeed(long seed) {
        return with(s -> s.seed = seed);
    }

    /**
     * Returns a copy whose natural output lengths (requests without {@code ignore_eos}) are drawn from a
     * geometric distribution with mean {@code meanOutputTokens}, then clamped to the request's limits.
     */
    public PerformanceModel withMeanOutputTokens(int meanOutputTokens) {
        return with(s -> s.meanOutputTokens = meanOutputTokens);
    }

    /**
     * Returns a copy that imitates a reasoning model: the first {@code reasoningTokens} output tokens of every chat
     * response stream as {@code delta.reasoning_content}, as vLLM's reasoning parsers send them, and the rest as the
     * answer; 0 (the default) turns reasoning off. They are output tokens like any other (counted in {@code
     * completion_tokens}, timed by the same model); a response that ends sooner ends inside its reasoning. A request
     * with {@code chat_template_kwargs: {"enable_thinking": false}} (Qwen3's switch) gets no reasoning, and the
     * completions endpoint never has any.
     */
    public PerformanceModel withReasoningTokens(int reasoningTokens) {
        return with(s -> s.reasoningTokens = reasoningTokens);
    }

    /** Returns the reasoning tokens that start every chat response ({@link #withReasoningTokens}), 0 for none. */
    public int reasoningTokens() {
        return settings.reasoningTokens;
    }

    /**
     * Returns a copy with other achieved utilisations of the roofline: {@code memoryBandwidthUtilization} (MBU,
     * which sets decode step times) and {@code modelFlopsUtilization} (MFU, which sets prefill times), each in
     * (0, 1]. These are the knobs to calibrate a preset against measurements of a real server. Roofline models
     * only.
     *
     * <p>The copy's name says so, {@code h100-llama3-8b (MBU 0.50, MFU 0.40)}, so that a gate's server metadata
     * tells a recalibrated model from the stock preset; {@link #withName(String)} afterwards names it otherwise.
     *
     * @throws IllegalStateException for a model with constant costs
     */
    public PerformanceModel withUtilization(double memoryBandwidthUtilization, double modelFlopsUtilization) {
        if (hasConstantStepCosts()) {
            throw new IllegalStateException(
                    "Model '" + name() + "' has constant costs; it has no roofline to calibrate");
        }
        return with(s -> {
            s.mbu = memoryBandwidthUtilization;
            s.mfu = modelFlopsUtilization;
            String base = s.name.contains(UTILIZATION_SUFFIX)
                    ? s.name.substring(0, s.name.indexOf(UTILIZATION_SUFFIX))
                    : s.name;
            s.name = base
                    + String.format(
                            java.util.Locale.ROOT,
                            UTILIZATION_SUFFIX + "%.2f, MFU %.2f)",
                            memoryBandwidthUtilization,
                            modelFlopsUtilization);
        });
    }

    /**
     * Returns a copy whose decode is {@code factor} times slower: the memory-bandwidth utilisation divided by it and
     * the step overhead multiplied by it, so that every decode step (memory-bound) takes {@code factor} times as
     * long. A known slowdown, to check that an A/B gate catches what it should ({@code docs/ci-gates.md}).
     *
     * @param factor above 1 for slower, for example 1.05 for 5 % slower per output token
     * @throws IllegalStateException for a model with constant costs
     */
    public PerformanceModel withSlowerDecode(double factor) {
        requireFactor(factor);
        return withUtilization(memoryBandwidthUtilization() / factor, modelFlopsUtilization())
                .withStepOverhead(Duration.ofNanos(Math.round(stepOverheadNanos() * factor)));
    }

    /**
     * Returns a copy whose prefill is {@code factor} times slower: the model FLOPs utilisation divided by it, so that a
     * compute-bound prefill step takes {@code factor} times as long. A known slowdown, as {@link
     * #withSlowerDecode(double)}.
     *
     * @param factor above 1 for slower, for example 1.10 for 10 % slower prefill
     * @throws IllegalStateException for a model with constant costs
     */
    public PerformanceModel withSlowerPrefill(double factor) {
        requireFactor(factor);
        return withUtilization(memoryBandwidthUtilization(), modelFlopsUtilization() / factor);
    }

    private static void requireFactor(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("a slowdown factor must be a positive number, was " + factor);
        }
    }

    /** Returns a copy whose steps cost {@code overhead} more (scheduler and kernel-launch time). */
    public PerformanceModel withStepOverhead(Duration overhead) {
        return with(s -> s.stepOverheadNanos = overhead.toNanos());
    }

    /** Returns a copy with another name, for {@link #describe()}. */
    public PerformanceModel withName(String name) {
        return with(s -> s.name = name);
    }

    private PerformanceModel with(java.util.function.Consumer<PerformanceModelSettings> change) {
        PerformanceModelSettings copy = settings.copy();
        change.accept(copy);
        return new PerformanceModel(copy);
    }

    /** Returns the name (a preset's name unless renamed). */
    public String name() {
        return settings.name;
    }

    /** Returns how the engine schedules generations under this model. */
    public Mode mode() {
        return settings.batching ? Mode.CONTINUOUS_BATCHING : Mode.FIXED;
    }

    /** Returns the most sequences in the running batch ({@link Integer#MAX_VALUE} in fixed mode). */
    public int maxNumSeqs() {
        return settings.maxNumSeqs;
    }

    /** Returns the per-step token budget (decodes plus prefill chunks). */
    public int maxNumBatchedTokens() {
        return settings.maxNumBatchedTokens;
    }

    /** Returns the KV-cache capacity in tokens, a whole number of blocks. */
    public long kvCacheTokens() {
        return settings.kvCacheTokens / settings.blockSize * settings.blockSize;
    }

    /** Returns the KV-cache block size in tokens (16, as vLLM). */
    public int blockSize() {
        return settings.blockSize;
    }

    /** Returns the context limit (prompt plus output) in tokens. */
    public int maxModelLen() {
        return settings.maxModelLen;
    }

    /** Returns whether automatic prefix caching is on. */
    public boolean prefixCaching() {
        return settings.prefixCaching;
    }

    /** Returns the tokens produced per decode step (more than 1 models speculative decoding). */
    public int tokensPerChunk() {
        return settings.tokensPerChunk;
    }

    /** Returns how many generated tokens each emission groups (vLLM's {@code --stream-interval}, default 1). */
    public int streamInterval() {
        return settings.streamInterval;
    }

    /** Returns the jitter fraction (0 when off). */
    public double jitter() {
        return settings.jitter;
    }

    /** Returns the seed of the model's random draws. */
    public long seed() {
        return settings.seed;
    }

    /** Returns the mean natural output length of requests without {@code ignore_eos}. */
    public int meanOutputTokens() {
        return settings.meanOutputTokens;
    }

    /** Returns whether steps have constant costs (fixed and single-slot models) rather than roofline costs. */
    public boolean hasConstantStepCosts() {
        return settings.constantCosts;
    }

    /** Returns the constant cost of a step holding prefill work (the TTFT), or 0 for a roofline model. */
    public long constantTtftNanos() {
        return settings.constantTtftNanos;
    }

    /** Returns the constant cost of a pure decode step (the time per emission), or 0 for a roofline model. */
    public long constantTpotNanos() {
        return settings.constantTpotNanos;
    }

    /** Returns the model's parameter count (the 2P FLOPs per token of the roofline). */
    public long parameterCount() {
        return settings.parameterCount;
    }

    /** Returns the bytes of weights read once per step. */
    public long weightBytes() {
        return settings.weightBytes;
    }

    /** Returns the KV-cache bytes per token of context. */
    public long kvBytesPerToken() {
        return settings.kvBytesPerToken;
    }

    /** Returns the attention FLOPs per (query, key) token pair: 4 * layers * attention width. */
    public long attentionFlopsPerTokenPair() {
        return settings.attentionFlopsPerTokenPair;
    }

    /** Returns the GPU's peak memory bandwidth in bytes per second. */
    public double memoryBandwidthBytesPerSecond() {
        return settings.memoryBandwidth;
    }

    /** Returns the GPU's peak dense bf16 FLOP/s. */
    public double peakFlopsPerSecond() {
        return settings.peakFlops;
    }

    /** Returns the assumed memory-bandwidth utilisation (MBU) of decode steps. */
    public double memoryBandwidthUtilization() {
        return settings.mbu;
    }

    /** Returns the assumed model-FLOPs utilisation (MFU) of prefill. */
    public double modelFlopsUtilization() {
        return settings.mfu;
    }

    /** Returns the fixed overhead added to every step. */
    public long stepOverheadNanos() {
        return settings.stepOverheadNanos;
    }

    /** Returns the model's settings by name, for {@code /version} and run metadata. */
    public Map<String, Object> describe() {
        return settings.describe();
    }

    /** Two models are equal when every setting {@link #describe()} lists is equal. */
    @Override
    public boolean equals(Object other) {
        return other instanceof PerformanceModel && describe().equals(((PerformanceModel) other).describe());
    }

    @Override
    public int hashCode() {
        return describe().hashCode();
    }

    @Override
    public String toString() {
        return "PerformanceModel" + describe();
    }
}
