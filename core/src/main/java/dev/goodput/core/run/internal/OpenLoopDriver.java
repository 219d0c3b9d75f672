package dev.goodput.core.run.internal;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.InFlightRequest;
import java.util.ArrayDeque;

/**
 * Sends requests at the instants of an {@link ArrivalSource} (a rate's schedule or a trace), whatever the server does. Each request's
 * intended start is its scheduled instant, not the moment the scheduler got round to it, so a late client
 * shows up as send lag and in every latency measured from the intended start.
 *
 * <p>With a concurrency cap, an arrival that finds the cap full waits in a first-come first-served queue and
 * is sent when a request ends; its wait is queue time.
 *
 * <p>A shard takes every {@code count}-th arrival of the same schedule, starting at its index, and holds its share
 * of the concurrency cap.
 */
public final class OpenLoopDriver extends LoadDriver {

    private final ArrivalSource schedule;
    private final int maxConcurrency;
    // Guarded by this.
    private final ArrayDeque<InFlightRequest> waitingForSlot = new ArrayDeque<>();
    private int inFlight;
    private long startNanos;

    public OpenLoopDriver(TaskScheduler scheduler, Transport transport, RunOptions options, RunRecorder recorder) {
        super(scheduler, transport, options, recorder);
        this.schedule = ArrivalSource.of(options);
        this.maxConcurrency = Math.toIntExact(
                options.shard().shareOf(options.profile().maxConcurrency().orElse(0)));
    }

    @Override
    protected void begin(long start) {
        this.startNanos = start;
        for (int skipped = 0; skipped < options.shard().index(); skipped++) {
            schedule.next();
        }
        scheduleArrival(start + nextOwnedArrival());
    }

    @Override
    protected long loadEndOffsetNanos() {
        if (profile.limits().duration().isPresent()) {
            return profile.limits().duration().get().toNanos();
        }
        if (profile.cooldown().duration().isEmpty()) {
            return Long.MAX_VALUE;
        }
        // Only a request limit: the load period ends at the last scheduled arrival. Replay the schedule.
        ArrivalSource replay = ArrivalSource.of(options);
        long last = 0;
        long requests = profile.limits().requests().orElseThrow();
        for (long i = 0; i < requests; i++) {
            last = replay.next();
        }
        return last;
    }

    /** Returns the offset of this shard's next arrival, and passes over the other shards' arrivals before the one after. */
    private long nextOwnedArrival() {
        long offset = schedule.next();
        for (int other = 1; other < options.shard().count(); other++) {
            schedule.next();
        }
        return offset;
    }

    private void scheduleArrival(long intendedNanos) {
        scheduler.schedule(intendedNanos, () -> arrive(intendedNanos));
    }

    private void arrive(long intendedNanos) {
        synchronized (this) {
            createAndDispatch(intendedNanos);
        }
        startDispatched();
    }

    private void createAndDispatch(long intendedNanos) {
        if (!mayCreate(intendedNanos)) {
            creationFinished();
            return;
        }
        InFlightRequest request = create(intendedNanos);
        if (maxConcurrency > 0 && inFlight >= maxConcurrency) {
            waitingForSlot.addLast(request);
        } else {
            inFlight++;
            dispatch(request, false);
        }
        long next = startNanos + nextOwnedArrival();
        if (mayCreate(next)) {
            scheduleArrival(next);
        } else {
            creationFinished();
        }
    }

    @Override
    protected void afterEnd(InFlightRequest request, RequestRecord record) {
        if (record.dispatchedNanos() == RequestRecord.ABSENT) {
            // Cancelled while still waiting for a slot: it never held one.
            waitingForSlot.remove(request);
            return;
        }
        inFlight--;
        InFlightRequest next = isStopping() ? null : waitingForSlot.pollFirst();
        if (next != null) {
            inFlight++;
            dispatch(next, true);
        }
    }
}
