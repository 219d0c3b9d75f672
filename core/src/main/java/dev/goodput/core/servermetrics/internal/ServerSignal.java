package dev.goodput.core.servermetrics.internal;

/**
 * What a server-side series means, whichever server named it, in one unit per signal. {@link ServerMetricNames}
 * maps each server's names onto these.
 */
public enum ServerSignal {
    /** Requests in the running batch. */
    RUNNING_REQUESTS(Kind.GAUGE, "requests", Aggregation.SUM, "Running requests"),
    /** Requests queued, not yet scheduled. */
    WAITING_REQUESTS(Kind.GAUGE, "requests", Aggregation.SUM, "Waiting requests"),
    /** Fraction of the KV cache in use, 0 to 1. */
    KV_CACHE_USAGE(Kind.GAUGE, "fraction", Aggregation.MEAN, "KV cache use"),
    /** Sequences preempted (evicted from the batch to be recomputed or swapped) so far. */
    PREEMPTIONS(Kind.COUNTER, "preemptions", Aggregation.SUM, "Preemptions"),
    /** Prompt tokens looked up in the prefix cache so far. */
    PREFIX_CACHE_QUERIES(Kind.COUNTER, "tokens", Aggregation.SUM, "Prefix cache queries"),
    /** Prompt tokens found in the prefix cache so far. */
    PREFIX_CACHE_HITS(Kind.COUNTER, "tokens", Aggregation.SUM, "Prefix cache hits"),
    /** A server's own prefix-cache hit rate, 0 to 1, for servers that export only a rate (SGLang). */
    PREFIX_CACHE_HIT_RATE(Kind.GAUGE, "fraction", Aggregation.MEAN, "Prefix cache hit rate"),
    /** Prompt (prefill) tokens processed so far. */
    PROMPT_TOKENS(Kind.COUNTER, "tokens", Aggregation.SUM, "Prompt tokens"),
    /** Tokens generated so far. */
    GENERATION_TOKENS(Kind.COUNTER, "tokens", Aggregation.SUM, "Generated tokens"),
    /** Time to first token as the server measured it. */
    SERVER_TTFT(Kind.HISTOGRAM, "seconds", Aggregation.SUM, "Server TTFT"),
    /** Time between output tokens as the server measured it. */
    SERVER_ITL(Kind.HISTOGRAM, "seconds", Aggregation.SUM, "Server ITL"),
    /** Whole-request latency as the server measured it. */
    SERVER_E2E(Kind.HISTOGRAM, "seconds", Aggregation.SUM, "Server E2E latency"),
    /** Time from arrival to first being scheduled, as the server measured it. */
    SERVER_QUEUE_TIME(Kind.HISTOGRAM, "seconds", Aggregation.SUM, "Server queue time"),
    /** Fraction of time the GPU was busy, 0 to 1. */
    GPU_UTILIZATION(Kind.GAUGE, "fraction", Aggregation.MEAN, "GPU utilisation"),
    /** Power drawn, in watts (summed over GPUs). */
    GPU_POWER(Kind.GAUGE, "W", Aggregation.SUM, "GPU power"),
    /** Energy consumed so far, in joules (summed over GPUs). */
    GPU_ENERGY(Kind.COUNTER, "J", Aggregation.SUM, "GPU energy"),
    /** Fraction of time the GPU's memory interface was busy, 0 to 1. */
    GPU_MEMORY_BANDWIDTH_UTILIZATION(Kind.GAUGE, "fraction", Aggregation.MEAN, "GPU memory bandwidth use");

    /** How a signal's value behaves over time. */
    public enum Kind {
        /** A value at the instant of the scrape. */
        GAUGE,
        /** A total since the server started; a run's share is the difference of two scrapes. */
        COUNTER,
        /** Cumulative buckets of observations; a run's share is {@link Buckets#minus}. */
        HISTOGRAM
    }

    /**
     * How the series of one signal (several engines of one server, several GPUs) combine into one value.
     * Histograms always merge bucket-wise, which is {@link #SUM}.
     */
    public enum Aggregation {
        /** Amounts add up: requests, tokens, watts, joules. */
        SUM,
        /** Fractions average: the KV cache use or utilisation of the whole. */
        MEAN
    }

    private final Kind kind;
    private final String unit;
    private final Aggregation acrossSeries;
    private final String label;

    ServerSignal(Kind kind, String unit, Aggregation acrossSeries, String label) {
        this.kind = kind;
        this.unit = unit;
        this.acrossSeries = acrossSeries;
        this.label = label;
    }

    /** Returns whether this is a gauge, a counter or a histogram. */
    public Kind kind() {
        return kind;
    }

    /** Returns the unit of its values (for histograms, of the observations): "requests", "fraction", "W", ... */
    public String unit() {
        return unit;
    }

    /** Returns how several series of this signal combine into one value. */
    public Aggregation acrossSeries() {
        return acrossSeries;
    }

    /** Returns a short human label for charts and tables, e.g. "KV cache use". */
    public String label() {
        return label;
    }
}
