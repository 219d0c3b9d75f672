package dev.goodput.core.internal.driver;

import dev.goodput.core.RequestRecord;
import dev.goodput.core.internal.client.InFlightRequest;
import dev.goodput.core.internal.client.Transport;

/**
 * Runs a fixed number of virtual users, each sending one request at a time: a user's next request is intended
 * to start when its previous one ended plus the think time. All users start at once.
 */
public final class ClosedLoopDriver extends LoadDriver {

    // Guarded by this.
    private int retiredUsers;

    public ClosedLoopDriver(TaskScheduler scheduler, Transport transport, RunOptions options) {
        super(scheduler, transport, options);
    }

    @Override
    protected void begin(long startNanos) {
        for (int user = 0; user < profile.concurrency(); user++) {
            scheduleUser(startNanos);
        }
        if (profile.duration() != null) {
            // The drain period starts when the load period ends, even if a user is stuck in a long request.
            long end = startNanos + profile.duration().toNanos();
            scheduler.schedule(end, () -> {
                synchronized (this) {
                    creationFinished();
                }
            });
        }
    }

    @Override
    protected long loadEndOffsetNanos() {
        return profile.duration() == null ? Long.MAX_VALUE : profile.duration().toNanos();
    }

    @Override
    protected void afterEnd(InFlightRequest request, RequestRecord record) {
        // Scheduled rather than sent inline, so a server that fails every request at once cannot recurse.
        scheduleUser(record.endNanos() + profile.thinkTime().toNanos());
    }

    private void scheduleUser(long intendedNanos) {
        scheduler.schedule(intendedNanos, () -> send(intendedNanos));
    }

    private synchronized void send(long intendedNanos) {
        if (!mayCreate(intendedNanos)) {
            retiredUsers++;
            if (retiredUsers == profile.concurrency()) {
                creationFinished();
            }
            return;
        }
        dispatch(create(intendedNanos), false);
        if (profile.requests() > 0 && createdCount() == profile.requests()) {
            creationFinished();
        }
    }
}
