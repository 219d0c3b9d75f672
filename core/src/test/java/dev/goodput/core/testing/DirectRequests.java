package dev.goodput.core.testing;

import dev.goodput.core.record.Phase;
import dev.goodput.core.transport.internal.FinishedRequest;
import dev.goodput.core.transport.internal.InFlightRequest;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.transport.internal.RequestListener;
import dev.goodput.core.transport.internal.RetryRule;
import dev.goodput.core.transport.internal.StreamSettings;
import dev.goodput.core.workload.RequestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests driven by hand, without a driver: each is sent at once, and what it hands over when it ends is kept.
 * Not thread-safe; for tests and benchmarks that feed streams on one thread.
 */
public final class DirectRequests implements RequestListener {

    private final List<FinishedRequest> finished = new ArrayList<>();
    private final List<Long> retryWaits = new ArrayList<>();

    /** Creates a measured request that requires the stream's end, never retries, and is sent at {@code nanos}. */
    public MeasuredAttempt send(long index, RequestSpec spec, long nanos) {
        InFlightRequest request =
                new InFlightRequest(index, Phase.MEASURED, spec, nanos, StreamSettings.of(true), RetryRule.NEVER, this);
        return request.send(nanos, false);
    }

    @Override
    public void retrying(InFlightRequest request, long waitNanos) {
        retryWaits.add(waitNanos);
    }

    @Override
    public void finished(InFlightRequest request, FinishedRequest handover) {
        finished.add(handover);
    }

    /** Returns what the requests handed over, in the order they ended. */
    public List<FinishedRequest> finished() {
        return finished;
    }

    /** Returns the waits of the retries requests announced, in order. */
    public List<Long> retryWaits() {
        return retryWaits;
    }

    /** Returns what the last request to end handed over. */
    public FinishedRequest last() {
        return finished.get(finished.size() - 1);
    }
}
