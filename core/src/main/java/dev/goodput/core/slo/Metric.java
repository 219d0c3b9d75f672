package dev.goodput.core.slo;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.record.StreamPhases;
import org.apiguardian.api.API;

/**
 * The metrics Goodput measures, defined exactly as in the metric definitions of the user guide
 * ({@code docs/metrics.md}).
 *
 * <p>Latency metrics are held in nanoseconds; throughputs per second; ratios between 0 and 1.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Metric {
    /** Time to first token from the intended start: {@code firstToken - intended}. One sample per request. */
    TTFT(Kind.REQUEST, Unit.NANOSECONDS, "TTFT"),
    /** Time to first token from the send, vLLM's definition: {@code firstToken - dispatched}. */
    TTFT_FROM_SEND(Kind.REQUEST, Unit.NANOSECONDS, "TTFT from send"),
    /** Client-side queue time: {@code dispatched - intended}. */
    QUEUE_TIME(Kind.REQUEST, Unit.NANOSECONDS, "queue time"),
    /** End-to-end latency from the intended start: {@code lastToken - intended}. */
    E2EL(Kind.REQUEST, Unit.NANOSECONDS, "E2EL"),
    /** Time per output token after the first; only requests with at least two output tokens. */
    TPOT(Kind.REQUEST, Unit.NANOSECONDS, "TPOT"),
    /** Largest gap between consecutive content events of a request. */
    MAX_STALL(Kind.REQUEST, Unit.NANOSECONDS, "max stall"),
    /**
     * The client's own delay, {@code dispatched - intended}, for requests not held by a concurrency cap. A
     * high value means the client could not keep up with its schedule.
     */
    SEND_LAG(Kind.REQUEST, Unit.NANOSECONDS, "send lag"),
    /**
     * Time to first output token from the intended start: {@code firstAnswer - intended}, the first event of the
     * answer (content or a tool call) after any reasoning (GuideLLM's TTFOT, AIPerf's TTFO). Equals {@link #TTFT}
     * for a request that did not reason; TTFT stays the first token of any kind. Requests whose stream carried no
     * answer (it ended while reasoning) have no sample. See {@link StreamPhases}.
     */
    TTFO(Kind.REQUEST, Unit.NANOSECONDS, "TTFO"),
    /**
     * Time per output token of the answer after its first: {@code (lastAnswer - firstAnswer) / (answerTokens - 1)},
     * {@code answerTokens = outputTokens - reasoningTokens}; only requests with at least two answer tokens. Equals
     * {@link #TPOT} for a request that did not reason.
     */
    ANSWER_TPOT(Kind.REQUEST, Unit.NANOSECONDS, "answer TPOT"),
    /**
     * Reasoning tokens of a request: the server's {@code completion_tokens_details.reasoning_tokens} when it sends
     * them, else the client's count over the reasoning events. Only requests that reasoned have a sample, so a run
     * without reasoning has none.
     */
    REASONING_TOKENS(Kind.REQUEST, Unit.COUNT, "reasoning tokens"),
    /** Inter-chunk latency: every gap between consecutive content events, pooled over requests (vLLM's ITL). */
    ICL(Kind.POOLED, Unit.NANOSECONDS, "ICL"),
    /** Inter-token latency: each gap divided evenly over the tokens of the later event, pooled. */
    ITL(Kind.POOLED, Unit.NANOSECONDS, "ITL"),
    /** Successful requests per second of the measurement window. */
    REQUEST_THROUGHPUT(Kind.RUN, Unit.PER_SECOND, "request throughput"),
    /** Output tokens of successful requests per second. */
    OUTPUT_TOKEN_THROUGHPUT(Kind.RUN, Unit.PER_SECOND, "output token throughput"),
    /** Input tokens of successful requests per second. */
    INPUT_TOKEN_THROUGHPUT(Kind.RUN, Unit.PER_SECOND, "input token throughput"),
    /** Input plus output token throughput. */
    TOTAL_TOKEN_THROUGHPUT(Kind.RUN, Unit.PER_SECOND, "total token throughput"),
    /** Requests per second that succeeded and met every request-level SLO. */
    GOODPUT(Kind.RUN, Unit.PER_SECOND, "goodput"),
    /** Good requests divided by measured requests that ended (cancelled ones excluded). */
    SLO_ATTAINMENT(Kind.RUN, Unit.RATIO, "SLO attainment"),
    /** Non-successful measured requests divided by all measured requests. */
    ERROR_RATE(Kind.RUN, Unit.RATIO, "error rate"),
    /**
     * Server side: requests the server preempted during the run (the rise of its preemption counter between the
     * first and the last scrape); needs the server's metrics ({@code docs/server-metrics.md}).
     */
    PREEMPTIONS(Kind.RUN, Unit.COUNT, "preemptions"),
    /** Server side: the highest KV-cache use any scrape saw, 0 to 1. */
    PEAK_KV_CACHE_USAGE(Kind.RUN, Unit.RATIO, "peak KV cache use"),
    /** Server side: the most requests waiting in the server's queue at any scrape. */
    PEAK_WAITING_REQUESTS(Kind.RUN, Unit.COUNT, "peak waiting requests"),
    /** Server side: prefix-cache hits divided by prefix-cache queries during the run (in tokens), 0 to 1. */
    PREFIX_CACHE_HIT_RATE(Kind.RUN, Unit.RATIO, "prefix cache hit rate"),
    /** Server side: the GPUs' energy during the run divided by the output tokens the server generated in it. */
    ENERGY_PER_OUTPUT_TOKEN(Kind.RUN, Unit.JOULES_PER_TOKEN, "energy per output token"),
    /**
     * What a million output tokens of good requests cost: the stated price per GPU-hour times the GPU count times
     * the measurement window, divided by the good requests' output tokens (in millions).
     */
    COST_PER_MILLION_GOOD_TOKENS(Kind.RUN, Unit.PRICE_PER_MILLION_TOKENS, "cost per million good tokens");

    /** What one sample of a metric is. */
    public enum Kind {
        /** One sample per successful measured request; exact percentiles. */
        REQUEST,
        /** One sample per gap, pooled over all successful measured requests, held in a histogram. */
        POOLED,
        /** One value for the whole run. */
        RUN
    }

    /** The unit a metric's values are held in. */
    public enum Unit {
        NANOSECONDS,
        PER_SECOND,
        RATIO,
        /** A number of events or requests. */
        COUNT,
        /** Joules per token. */
        JOULES_PER_TOKEN,
        /** The currency of the stated GPU price per million tokens. */
        PRICE_PER_MILLION_TOKENS
    }

    private final Kind kind;
    private final Unit unit;
    private final String displayName;

    Metric(Kind kind, Unit unit, String displayName) {
        this.kind = kind;
        this.unit = unit;
        this.displayName = displayName;
    }

    /** Returns what one sample of this metric is. */
    public Kind kind() {
        return kind;
    }

    /** Returns the unit this metric's values are held in. */
    public Unit unit() {
        return unit;
    }

    /** Returns the name used in reports and failure messages, for example {@code "TTFT"}. */
    public String displayName() {
        return displayName;
    }

    /**
     * Returns whether this metric needs at least two output tokens per request to have any sample: it is
     * measured on the gaps between tokens (TPOT, answer TPOT, ICL, ITL, max stall).
     */
    public boolean needsTwoTokens() {
        return this == TPOT || this == ANSWER_TPOT || this == ICL || this == ITL || this == MAX_STALL;
    }

    /**
     * Returns whether this metric comes from the server's own metrics or its stated deployment (GPU count and
     * price) rather than from the client's records alone.
     */
    public boolean isServerSide() {
        return ordinal() >= PREEMPTIONS.ordinal();
    }

    /** Returns whether this metric is a latency (held in nanoseconds). */
    public boolean isLatency() {
        return unit == Unit.NANOSECONDS;
    }
}
