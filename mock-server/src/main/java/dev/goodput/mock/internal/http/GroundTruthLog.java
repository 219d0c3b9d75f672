package dev.goodput.mock.internal.http;

import dev.goodput.mock.RequestTruth;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The finished requests' ground truth, bounded: past {@code capacity} records the oldest are dropped (and
 * counted) so a long run can't exhaust memory. Metrics are fed from every record before any is dropped. It also
 * counts the requests still being served (opened, not yet added), so that a reset can wait until there are none.
 */
final class GroundTruthLog {

    private final int capacity;
    private final ServerMetrics metrics;
    private final ArrayDeque<RequestTruth> records = new ArrayDeque<>();
    private long dropped;
    private long inFlight;

    GroundTruthLog(int capacity, ServerMetrics metrics) {
        this.capacity = capacity;
        this.metrics = metrics;
    }

    /** Notes a request whose record is being written; {@link #add} ends it. */
    synchronized void opened() {
        inFlight++;
    }

    /** Returns how many requests were opened and have not finished. */
    synchronized long inFlight() {
        return inFlight;
    }

    void add(RequestTruth truth) {
        metrics.observe(truth);
        synchronized (this) {
            inFlight--;
            if (records.size() == capacity) {
                records.pollFirst();
                dropped++;
            }
            records.addLast(truth);
        }
    }

    synchronized List<RequestTruth> snapshot() {
        return List.copyOf(records);
    }

    synchronized long dropped() {
        return dropped;
    }

    synchronized void clear() {
        records.clear();
        dropped = 0;
    }
}
