package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.workload.ApiKind;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What each request of the run sends. On the class, the default for every method; a method's own
 * {@code @Workload} replaces it. Without any, 256 input and 128 output tokens of seeded pseudo-words.
 *
 * <p>Four sources, one per gate: synthetic prompts (the default: lengths, tokenizer and prefix policy below), a
 * {@link #dataset()} file, a {@link #trace()} file replayed at its own arrival times (then no
 * {@code @LoadProfile}), or multi-turn sessions ({@link #turns()} above 1, in a closed loop). Files are read
 * before any load is sent; a missing or malformed file fails the test with the file, the line and the reason.
 * Paths are relative to the working directory (the module's directory under Maven), or {@code classpath:...}.
 * Every option is described in {@code docs/workloads.md}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface Workload {

    /** The shape of a length distribution; see {@link dev.goodput.core.workload.LengthDistribution}. */
    enum Lengths {
        /** Always the given length. */
        FIXED,
        /** Uniform within {@code length * (1 ± rangeRatio)}, as vLLM's {@code --random-range-ratio}. */
        UNIFORM,
        /** Normal with standard deviation {@code spread * length}, within {@code [1, 2 * length]}. */
        NORMAL,
        /** Log-normal with median {@code length} and sigma {@code spread}, within {@code [1, 8 * length]}. */
        LOG_NORMAL,
        /**
         * An empirical histogram: the lengths of {@code inputHistogramLengths} (or {@code outputHistogram...})
         * drawn with probabilities proportional to the weights at the same positions.
         */
        EMPIRICAL
    }

    /** How prompts share their beginnings; see {@link dev.goodput.core.workload.PrefixPolicy}. */
    enum Prefix {
        /** Every prompt starts with a unique salt. */
        COLD,
        /** Every prompt starts with one of {@code prefixGroups} shared prefixes of {@code prefixTokens}. */
        WARM,
        /** A share {@code warmShare} of prompts is warm, the rest cold. */
        MIX
    }

    /** Prompt length in tokens of the tokenizer (per turn for conversations); at least 1. */
    int inputTokens() default 256;

    /** Output length, sent as {@code max_tokens}; at least 1. */
    int outputTokens() default 128;

    /** The distribution of prompt lengths around {@link #inputTokens()}. */
    Lengths inputLengths() default Lengths.FIXED;

    /** The distribution of output lengths around {@link #outputTokens()}. */
    Lengths outputLengths() default Lengths.FIXED;

    /** For {@code inputLengths = EMPIRICAL}: the prompt lengths of the histogram. */
    int[] inputHistogramLengths() default {};

    /** For {@code inputLengths = EMPIRICAL}: the weight of each length, at the same positions. */
    double[] inputHistogramWeights() default {};

    /** For {@code outputLengths = EMPIRICAL}: the output lengths of the histogram. */
    int[] outputHistogramLengths() default {};

    /** For {@code outputLengths = EMPIRICAL}: the weight of each length, at the same positions. */
    double[] outputHistogramWeights() default {};

    /** For {@link Lengths#UNIFORM}: the range ratio, at least 0 and below 1. */
    double rangeRatio() default 0.5;

    /** For {@link Lengths#NORMAL}: standard deviation over mean; for {@link Lengths#LOG_NORMAL}: sigma. */
    double spread() default 0.5;

    /**
     * The tokenizer that counts prompts: {@code "simulated"} (the simulated server's rule),
     * {@code "tiktoken:cl100k_base"} (any tiktoken encoding) or {@code "hf:path/to/tokenizer.json"}.
     */
    String tokenizer() default "simulated";

    /** The prefix-cache policy of synthetic prompts. */
    Prefix prefix() default Prefix.COLD;

    /** For {@link Prefix#WARM} and {@link Prefix#MIX}: the shared prefix length, below every prompt length. */
    int prefixTokens() default 0;

    /** For {@link Prefix#WARM} and {@link Prefix#MIX}: the number of distinct shared prefixes. */
    int prefixGroups() default 1;

    /** For {@link Prefix#MIX}: the share of warm prompts, 0 to 1. */
    double warmShare() default 0.5;

    /**
     * A dataset file: {@code .json} is ShareGPT (first human turn, the reply's length as output length),
     * {@code .jsonl} has {@code prompt} or {@code messages} and optional {@code output_tokens} per line
     * ({@link #outputTokens()} otherwise). With {@link #turns()} above 1, each conversation of the file
     * (ShareGPT {@code conversations} or {@code messages}, JSON array or JSONL) is replayed as a session instead.
     * Empty for synthetic prompts.
     */
    String dataset() default "";

    /** For a ShareGPT dataset: apply vLLM's length filters. */
    boolean vllmFilters() default false;

    /**
     * A trace file replayed at its arrival times: {@code .jsonl} is Mooncake; {@code .csv} is Azure ({@code
     * TIMESTAMP} column) or BurstGPT ({@code Timestamp} column). Empty for none.
     */
    String trace() default "";

    /** For a trace: multiplies its offsets (0.5 replays twice as fast). */
    double timeScale() default 1.0;

    /** For a trace: if above 0, rescales its time to this mean rate in requests/s (instead of timeScale). */
    double traceRate() default 0;

    /**
     * Turns per multi-turn session; above 1 sends conversations with growing history. With a {@link #dataset()},
     * the most turns replayed of each recorded conversation ({@code Integer.MAX_VALUE} for all).
     */
    int turns() default 1;

    /** For conversations: the pause between a reply and the session's next turn, in milliseconds. */
    long thinkTimeMillis() default 0;

    /** Chat completions (default) or plain completions. */
    ApiKind api() default ApiKind.CHAT;

    /** Whether to send {@code ignore_eos: true}, which pins the output length on vLLM. */
    boolean ignoreEos() default true;

    /**
     * Whether every request carries a tool ({@code RequestShape.LOOKUP_TOOL}) with {@code tool_choice: "required"},
     * so that the model answers with a tool call; chat only.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    boolean toolCalls() default false;

    /** The seed of lengths and prompt words. */
    long seed() default 0;
}
