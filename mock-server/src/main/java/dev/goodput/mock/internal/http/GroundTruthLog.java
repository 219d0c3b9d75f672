package dev.goodput.mock.internal.http;

import dev.goodput.mock.RequestTruth;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The finished requests' ground truth, bounded: past {@code capacity} records the oldest are dropped (and
 * counted) so a long run can't exhaust memory. Metrics are fed from every record before any is dropped.
 */
final class GroundTruthLog {

    private final int capacity;
    private final ServerMetrics metrics;
    private final ArrayDeque<RequestTruth> records = new ArrayDeque<>();
    private long dropped;

    GroundTruthLog(int capacity, ServerMetrics metrics) {
        this.capacity = capacity;
        this.metrics = metrics;
    }

    void add(RequestTruth truth) {
        metrics.observe(truth);
        synchronized (this) {
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
