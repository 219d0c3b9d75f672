package dev.goodput.core.internal.driver;

import dev.goodput.core.Load;
import dev.goodput.core.Phase;
import dev.goodput.core.RequestPolicy;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.RequestSpec;
import dev.goodput.core.RunProgress;
import dev.goodput.core.internal.client.InFlightRequest;
import dev.goodput.core.internal.client.Transport;
import dev.goodput.core.internal.result.OutputLengthCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Drives one run: creates requests on a schedule, sends them, arms their timeouts, collects their records,
 * and after the last creation waits a drain period before cancelling what is left. Every request it creates
 * ends in exactly one record.
 *
 * <p>Subclasses decide when requests are created (open or closed loop). All bookkeeping happens under this
 * object's monitor; requests are never called while it is held except to cancel them, which is safe because
 * a request calls back only outside its own monitor.
 */
public abstract class LoadDriver {

    protected final TaskScheduler scheduler;
    protected final Transport transport;
    protected final RunOptions options;
    protected final Load profile;
    private final PooledGaps pooledGaps = new PooledGaps();
    private final OutputLengthCheck outputLengths = new OutputLengthCheck();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    // Guarded by this.
    private final Set<InFlightRequest> unfinished = new LinkedHashSet<>();
    private final List<RequestRecord> records = new ArrayList<>();
    private final java.util.Map<InFlightRequest, List<TaskScheduler.Cancellable>> timers = new java.util.HashMap<>();
    private PhaseAssigner phases;
    private long startNanos;
    private long created;
    private boolean creationDone;
    private long lastCreationNanos;
    private boolean stopping;

    protected LoadDriver(TaskScheduler scheduler, Transport transport, RunOptions options) {
        this.scheduler = scheduler;
        this.transport = transport;
        this.options = options;
        this.profile = options.profile();
    }

    /** Starts the run now; returns at once. */
    public final synchronized void start() {
        startNanos = scheduler.clock().nanoTime();
        phases = new PhaseAssigner(profile, loadEndOffsetNanos());
        begin(startNanos);
    }

    /** Completes when every created request has ended. */
    public final CompletableFuture<Void> finished() {
        return finished;
    }

    /** Returns the instant the run started. */
    public final synchronized long startNanos() {
        return startNanos;
    }

    /** Returns how far the run has got. */
    public final synchronized RunProgress progress() {
        long elapsed = startNanos == 0 ? 0 : scheduler.clock().nanoTime() - startNanos;
        long planned = profile.limits().duration().map(Duration::toNanos).orElse(0L);
        return new RunProgress(
                created, records.size(), profile.limits().requests().orElse(0), elapsed, planned, finished.isDone());
    }

    /** Returns every record, ordered by schedule position. Call after {@link #finished()} completed. */
    public final synchronized List<RequestRecord> records() {
        List<RequestRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(RequestRecord::index));
        return sorted;
    }

    /** Returns the output lengths asked for under {@code ignore_eos} against those produced. */
    public final OutputLengthCheck outputLengths() {
        return outputLengths;
    }

    /** Returns the pooled gap histograms of measured successful requests. */
    public final PooledGaps pooledGaps() {
        return pooledGaps;
    }

    /** Schedules the first creations. Called once, under the monitor. */
    protected abstract void begin(long startNanos);

    /** Returns the end of the load period for a time-based cool-down, as an offset from the start. */
    protected abstract long loadEndOffsetNanos();

    /** Called under the monitor when a request has ended and been recorded. */
    protected abstract void afterEnd(InFlightRequest request, RequestRecord record);

    /** Returns whether another request may be created at {@code intendedNanos}. Called under the monitor. */
    protected final boolean mayCreate(long intendedNanos) {
        if (creationDone) {
            return false;
        }
        boolean belowCount = created < profile.limits().requests().orElse(Long.MAX_VALUE);
        boolean beforeEnd = profile.limits()
                .duration()
                .map(duration -> intendedNanos - startNanos < duration.toNanos())
                .orElse(true);
        return belowCount && beforeEnd;
    }

    /** Creates the next request, intended to start at {@code intendedNanos}. Called under the monitor. */
    protected final InFlightRequest create(long intendedNanos) {
        return create(intendedNanos, options.workload()::request);
    }

    /**
     * Creates the next request with the spec {@code specs} gives for its index (a conversation's next turn).
     * Called under the monitor.
     */
    protected final InFlightRequest create(long intendedNanos, java.util.function.LongFunction<RequestSpec> specs) {
        long index = created++;
        Phase phase = phases.phase(index, intendedNanos - startNanos);
        RequestSpec spec = specs.apply(index);
        InFlightRequest request = new InFlightRequest(
                index,
                phase,
                spec,
                intendedNanos,
                options.requireStreamEnd(),
                options.outputTokenCounter(),
                this::onComplete);
        unfinished.add(request);
        lastCreationNanos = Math.max(lastCreationNanos, intendedNanos);
        return request;
    }

    /** Sends a request now and arms its timeouts. Called under the monitor. */
    protected final void dispatch(InFlightRequest request, boolean heldByCap) {
        long now = scheduler.clock().nanoTime();
        request.markDispatched(now, heldByCap);
        List<TaskScheduler.Cancellable> armed = new ArrayList<>(3);
        RequestPolicy policy = profile.requestPolicy();
        armTimeout(armed, request, now, policy.headersTimeout().orElse(null), "no response headers", true, false);
        armTimeout(armed, request, now, policy.firstTokenTimeout().orElse(null), "no first token", false, true);
        armTimeout(armed, request, now, policy.totalTimeout(), "not finished", false, false);
        timers.put(request, armed);
        try {
            request.attach(transport.start(request));
        } catch (RuntimeException e) {
            // A request that cannot even be sent still ends in exactly one outcome.
            request.onFailure(e, scheduler.clock().nanoTime());
        }
    }

    /**
     * Declares that no more requests will be created, and schedules the end of the drain period. Called under
     * the monitor.
     */
    protected final void creationFinished() {
        if (creationDone) {
            return;
        }
        creationDone = true;
        long drainEnd = Math.max(lastCreationNanos, scheduler.clock().nanoTime())
                + profile.drain().toNanos();
        scheduler.schedule(drainEnd, this::cancelAfterDrain);
        checkFinished();
    }

    /**
     * Returns whether the run is cancelling what is left; a request queued for a slot must then not be sent.
     * Called under the monitor.
     */
    protected final boolean isStopping() {
        return stopping;
    }

    /** Returns the number of requests not yet ended. Called under the monitor. */
    protected final int unfinishedCount() {
        return unfinished.size();
    }

    /** Returns how many requests were created so far. Called under the monitor. */
    protected final long createdCount() {
        return created;
    }

    private void armTimeout(
            List<TaskScheduler.Cancellable> armed,
            InFlightRequest request,
            long dispatchedNanos,
            Duration timeout,
            String what,
            boolean unlessHeaders,
            boolean unlessFirstToken) {
        if (timeout == null) {
            return;
        }
        String reason = what + " within " + format(timeout) + " of sending";
        armed.add(scheduler.schedule(dispatchedNanos + timeout.toNanos(), () -> {
            if ((unlessHeaders && request.hasHeaders()) || (unlessFirstToken && request.hasFirstToken())) {
                return;
            }
            request.timeOut(reason, scheduler.clock().nanoTime());
        }));
    }

    private void onComplete(InFlightRequest request) {
        RequestRecord record = request.record();
        if (retryIfAllowed(request, record)) {
            return;
        }
        if (record.phase() == Phase.MEASURED && record.isSuccess()) {
            pooledGaps.record(request);
            outputLengths.record(request.spec(), record);
        }
        List<TaskScheduler.Cancellable> armed;
        synchronized (this) {
            if (!unfinished.remove(request)) {
                return;
            }
            records.add(record);
            armed = timers.remove(request);
            afterEnd(request, record);
            checkFinished();
        }
        if (armed != null) {
            armed.forEach(TaskScheduler.Cancellable::cancel);
        }
    }

    /**
     * Sends a failed request again when the profile allows retries and the failure is one a retrying client
     * would retry (see {@link Load#retries(int)}). The new attempt replaces the failed one among the
     * unfinished requests, so the run waits for it and a drain cancels it; the failed attempt is kept in the
     * new attempt's record.
     */
    private boolean retryIfAllowed(InFlightRequest failed, RequestRecord record) {
        int retries = profile.requestPolicy().retries();
        if (retries == 0 || record.attempts() > retries || !RetryPolicy.isRetryable(record)) {
            return false;
        }
        long waitNanos = RetryPolicy.waitNanos(failed.retryAfterSeconds(), record.attempts());
        if (waitNanos > profile.requestPolicy().maxRetryWait().toNanos()) {
            return false;
        }
        InFlightRequest retry = new InFlightRequest(
                failed.index(),
                failed.phase(),
                failed.spec(),
                failed.intendedNanos(),
                options.requireStreamEnd(),
                options.outputTokenCounter(),
                this::onComplete);
        retry.continueAfter(failed, waitNanos);
        List<TaskScheduler.Cancellable> armed;
        synchronized (this) {
            if (stopping || !unfinished.remove(failed)) {
                return false;
            }
            unfinished.add(retry);
            armed = timers.remove(failed);
            scheduler.schedule(scheduler.clock().nanoTime() + waitNanos, () -> {
                synchronized (this) {
                    if (!retry.isEnded() && unfinished.contains(retry)) {
                        dispatch(retry, record.heldByConcurrencyCap());
                    }
                }
            });
        }
        if (armed != null) {
            armed.forEach(TaskScheduler.Cancellable::cancel);
        }
        return true;
    }

    private void checkFinished() {
        if (creationDone && unfinished.isEmpty()) {
            finished.complete(null);
        }
    }

    private void cancelAfterDrain() {
        cancelRemaining("when the drain period of " + format(profile.drain()) + " ended");
    }

    /** Stops creating requests and cancels every request not yet ended, for example when the run is interrupted. */
    public final void cancelAll(String reason) {
        synchronized (this) {
            creationDone = true;
        }
        cancelRemaining("when " + reason);
        synchronized (this) {
            checkFinished();
        }
    }

    private void cancelRemaining(String when) {
        List<InFlightRequest> left;
        synchronized (this) {
            stopping = true;
            left = new ArrayList<>(unfinished);
        }
        long now = scheduler.clock().nanoTime();
        for (InFlightRequest request : left) {
            String where = request.dispatchedNanos() == RequestRecord.ABSENT
                    ? "still waiting for a concurrency slot"
                    : "still in flight";
            request.cancel(where + " " + when, now);
        }
    }

    static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
