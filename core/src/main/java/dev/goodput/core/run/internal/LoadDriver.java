package dev.goodput.core.run.internal;

import dev.goodput.core.RunProgress;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.FinishedRequest;
import dev.goodput.core.transport.internal.InFlightRequest;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.transport.internal.RequestListener;
import dev.goodput.core.transport.internal.StreamSettings;
import dev.goodput.core.workload.RequestSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * Drives one run: creates requests on a schedule, sends their attempts, arms each attempt's timeouts, sends a
 * retry when its wait is over, hands each finished request to the {@link RunRecorder}, and after the last
 * creation waits a drain period before cancelling what is left. Every request it creates is recorded exactly
 * once. It only schedules: what the run measured is the recorder's.
 *
 * <p>Subclasses decide when requests are created (open or closed loop). All bookkeeping happens under this
 * object's monitor; requests are never called while it is held except to mark them sent and cancel them, which is
 * safe because a request calls back only outside its own monitor. The transport is handed a dispatched attempt
 * after the monitor is released ({@link #startDispatched()}, {@link AttemptStarter}).
 *
 * <p>Longer than 300 lines because it holds the one life cycle every request goes through (created, dispatched,
 * retried, ended, cancelled) and the run's end, under one monitor whose contract must be read in one place.
 */
public abstract class LoadDriver {

    protected final TaskScheduler scheduler;
    protected final Transport transport;
    protected final RunOptions options;
    protected final Load profile;
    private final RunRecorder recorder;
    private final StreamSettings streamSettings;
    private final RetryPolicy retryPolicy;
    private final AttemptTimeouts timeouts;
    private final AttemptStarter starter;
    private final RequestListener listener = new RequestListener() {
        @Override
        public void retrying(InFlightRequest request, long waitNanos) {
            onRetrying(request, waitNanos);
        }

        @Override
        public void finished(InFlightRequest request, FinishedRequest finishedRequest) {
            onFinished(request, finishedRequest);
        }
    };
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    // Guarded by this.
    private final Set<InFlightRequest> unfinished = new LinkedHashSet<>();
    private final Map<InFlightRequest, List<TaskScheduler.Cancellable>> timers = new HashMap<>();
    private PhaseAssigner phases;
    private long startNanos;
    private long created;
    private long ended;
    private long unsuccessful;
    private boolean creationDone;
    private long lastCreationNanos;
    private final ServerGoneWatch serverGone;
    // Written under this; volatile because the retry policy reads it under a request's monitor instead.
    private volatile boolean stopping;
    // Guarded by this: a sequential run's looks (see looks()).
    private LookTracker lookTracker;
    private LookListener lookListener;
    private boolean measuredCreated;

    /**
     * Told when every measured request before a look's end has ended, on the thread that ended the last of them and
     * under the driver's monitor: it must only queue the look, never take a lock of the driver's on another thread.
     */
    @FunctionalInterface
    public interface LookListener {
        /**
         * @param look the look's number, from 0
         * @param endIndex the index of the first request after the look's measured ones
         */
        void lookReady(int look, long endIndex);
    }

    protected LoadDriver(TaskScheduler scheduler, Transport transport, RunOptions options, RunRecorder recorder) {
        this.scheduler = scheduler;
        this.transport = transport;
        this.options = options;
        this.profile = options.profile();
        this.recorder = recorder;
        this.streamSettings =
                new StreamSettings(options.requireStreamEnd(), options.outputTokenCounter(), options.redaction());
        this.retryPolicy = new RetryPolicy(profile, () -> stopping);
        this.timeouts = new AttemptTimeouts(scheduler, profile.requestPolicy());
        this.starter = new AttemptStarter(transport, scheduler.clock());
        this.serverGone = new ServerGoneWatch(options.stopWhenServerGone());
    }

    /**
     * Asks to be told when the first {@code measuredCounts[k]} measured requests (in schedule order) have all ended,
     * for each look {@code k} of a run that lasts until decided. Call before {@link #start}.
     */
    public final synchronized void looks(long[] measuredCounts, LookListener listener) {
        this.lookTracker = new LookTracker(measuredCounts);
        this.lookListener = listener;
    }

    /**
     * Stops creating requests, as a sequential run does once a look has decided; what was created still runs to its
     * end (at the latest the drain period after now).
     */
    public final synchronized void stopCreating() {
        creationFinished();
    }

    /** Starts the run now; returns at once. */
    public final void start() {
        start(scheduler.clock().nanoTime());
    }

    /** Starts the run counted from {@code startNanos} (a shard's agreed start; what is due is sent at once, late). */
    public final synchronized void start(long startNanos) {
        this.startNanos = startNanos;
        phases = new PhaseAssigner(profile, loadEndOffsetNanos());
        begin(startNanos);
    }

    /** Completes when every created request has ended. */
    public final CompletableFuture<Void> finished() {
        return finished;
    }

    /** Returns how far the run has got. */
    public final synchronized RunProgress progress() {
        long elapsed = phases == null ? 0 : scheduler.clock().nanoTime() - startNanos;
        long planned = profile.limits().duration().map(Duration::toNanos).orElse(0L);
        return new RunProgress(
                created,
                ended,
                options.shard().shareOf(profile.limits().requests().orElse(0)),
                elapsed,
                planned,
                finished.isDone(),
                unsuccessful);
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
        boolean beforeEnd = profile.limits()
                .duration()
                .map(duration -> intendedNanos - startNanos < duration.toNanos())
                .orElse(true);
        return !requestLimitReached() && beforeEnd;
    }

    /** Returns whether the next request's position in the run is past the request limit. Under the monitor. */
    protected final boolean requestLimitReached() {
        return options.shard().position(created) >= profile.limits().requests().orElse(Long.MAX_VALUE);
    }

    /** Creates the next request, intended to start at {@code intendedNanos}. Called under the monitor. */
    protected final InFlightRequest create(long intendedNanos) {
        return create(intendedNanos, options.workload()::request);
    }

    /** Creates the next request with the spec {@code specs} gives for its index (a conversation's next turn). */
    protected final InFlightRequest create(long intendedNanos, LongFunction<RequestSpec> specs) {
        // Its position in the whole run: a shard sends what one generator would send there (prompt, class, phase).
        long index = options.shard().position(created++);
        Phase phase = phases.phase(index, intendedNanos - startNanos);
        if (phase == Phase.MEASURED && !measuredCreated) {
            measuredCreated = true;
            recorder.firstMeasured(index);
            if (lookTracker != null) {
                lookTracker.firstMeasured(index);
            }
        }
        RequestSpec spec = specs.apply(index);
        InFlightRequest request =
                new InFlightRequest(index, phase, spec, intendedNanos, streamSettings, retryPolicy, listener);
        unfinished.add(request);
        lastCreationNanos = Math.max(lastCreationNanos, intendedNanos);
        return request;
    }

    /** Marks a request's attempt sent, arms its timeouts and queues it for {@link #startDispatched()}. */
    protected final void dispatch(InFlightRequest request, boolean heldByCap) {
        long now = scheduler.clock().nanoTime();
        MeasuredAttempt attempt = request.send(now, heldByCap);
        if (attempt == null) {
            return; // cancelled while it waited for its retry
        }
        timers.put(request, timeouts.arm(attempt, now));
        starter.queue(attempt);
    }

    /**
     * Hands the attempts this thread dispatched to the transport; call without the monitor after every dispatch, on
     * the thread that dispatched.
     */
    protected final void startDispatched() {
        starter.startQueued();
    }

    /** Declares that no more requests will be created and schedules the drain period's end. Under the monitor. */
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

    /**
     * Hands a finished request to the recorder and frees what it held. The recorder takes it before the run can
     * finish, so a snapshot taken after {@link #finished()} holds every request.
     */
    private void onFinished(InFlightRequest request, FinishedRequest finishedRequest) {
        List<TaskScheduler.Cancellable> armed;
        synchronized (this) {
            if (!unfinished.remove(request)) {
                return;
            }
            recorder.record(finishedRequest);
            if (lookTracker != null && finishedRequest.record().phase() == Phase.MEASURED) {
                LookTracker.Ready look =
                        lookTracker.measuredEnded(finishedRequest.record().index());
                if (look != null) {
                    // Under the monitor, before the run can finish: the look is only queued, and a result taken
                    // after finished() must find it.
                    lookListener.lookReady(look.look(), look.endIndex());
                }
            }
            ended++;
            if (!finishedRequest.record().isSuccess()) {
                unsuccessful++;
            }
            // Stopped from the scheduler: the stop cancels requests, which call back here.
            String gone = serverGone.stopReasonAfter(finishedRequest.record());
            if (gone != null) {
                scheduler.schedule(scheduler.clock().nanoTime(), () -> cancelAll(gone));
            }
            armed = timers.remove(request);
            afterEnd(request, finishedRequest.record());
            checkFinished();
        }
        AttemptTimeouts.disarm(armed);
        startDispatched();
    }

    /** Returns why the driver stopped the run before its schedule's end, or empty when it did not. */
    public final synchronized Optional<String> stopReason() {
        return serverGone.stopReason();
    }

    /**
     * Sends the request's next attempt when its wait is over (see {@link Load#retries(int)}). The request stays
     * among the unfinished ones meanwhile, holding its concurrency slot, so the run waits for it and a drain
     * cancels it.
     */
    private void onRetrying(InFlightRequest request, long waitNanos) {
        List<TaskScheduler.Cancellable> armed;
        synchronized (this) {
            armed = timers.remove(request);
            if (unfinished.contains(request)) {
                scheduler.schedule(scheduler.clock().nanoTime() + waitNanos, () -> sendRetry(request));
            }
        }
        AttemptTimeouts.disarm(armed);
    }

    private void sendRetry(InFlightRequest request) {
        synchronized (this) {
            if (unfinished.contains(request)) {
                dispatch(request, false);
            }
        }
        startDispatched();
    }

    private void checkFinished() {
        if (creationDone && unfinished.isEmpty()) {
            finished.complete(null);
        }
    }

    private void cancelAfterDrain() {
        cancelRemaining("when the drain period of " + AttemptTimeouts.format(profile.drain()) + " ended");
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
}
