package dev.goodput.core.run.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.transport.internal.ConnectionFailures;
import java.util.Optional;

/**
 * Tells when a run that stops once the server is plainly gone should stop: at the {@link RunSpec#SERVER_GONE_AFTER}th
 * request in a row that found no server to connect to (refused, unreachable, connect timeout). A request that got
 * anything from the server breaks the row; one cancelled (by the drain, or by the stop itself) says nothing of the
 * server. Not thread-safe: the driver's monitor guards it.
 */
final class ServerGoneWatch {

    private final boolean on;
    private int noServerInARow;
    private String stopReason;

    ServerGoneWatch(boolean on) {
        this.on = on;
    }

    /** Takes a request that ended; returns the reason to stop the run now, once, or {@code null} to go on. */
    String stopReasonAfter(RequestRecord record) {
        if (!on || stopReason != null) {
            return null;
        }
        if (ConnectionFailures.foundNoServer(record.errorDetail())) {
            noServerInARow++;
        } else if (record.outcome() != Outcome.CANCELLED) {
            noServerInARow = 0;
        }
        if (noServerInARow < RunSpec.SERVER_GONE_AFTER) {
            return null;
        }
        stopReason = "the server was gone: " + noServerInARow + " requests in a row found no server to connect to"
                + " (the last: " + record.errorDetail() + ")";
        return stopReason;
    }

    /** Returns why the run was stopped, or empty when it was not. */
    Optional<String> stopReason() {
        return Optional.ofNullable(stopReason);
    }
}
