package dev.goodput.core.internal.result;

import dev.goodput.core.RequestRecord;
import dev.goodput.core.RequestSpec;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts measured successful requests sent with {@code ignore_eos: true} and those of them that produced fewer
 * output tokens than {@code max_tokens}: with {@code ignore_eos} a server should always produce the full length.
 */
public final class OutputLengthCheck {

    private final LongAdder ignoreEos = new LongAdder();
    private final LongAdder shorter = new LongAdder();

    /** Checks one measured successful request. */
    public void record(RequestSpec spec, RequestRecord record) {
        if (Boolean.TRUE.equals(spec.ignoreEos())) {
            ignoreEos.increment();
            if (record.outputTokens() < spec.maxTokens()) {
                shorter.increment();
            }
        }
    }

    /** Returns how many requests were sent with {@code ignore_eos: true}. */
    public long ignoreEosRequests() {
        return ignoreEos.sum();
    }

    /** Returns how many of them produced fewer tokens than asked for. */
    public long shorterThanAsked() {
        return shorter.sum();
    }
}
