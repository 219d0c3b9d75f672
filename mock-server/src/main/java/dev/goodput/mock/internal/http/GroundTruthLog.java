package dev.goodput.mock.internal.http;

import dev.goodput.mock.RequestTruth;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The finished requests' ground truth, bounded: past {@code capacity} records the oldest are dropped (and
 * counted) so a long run can't exhaust memory. Metrics are fed from every record before any is dropped. It also
 * knows the requests still being served (opened, not yet added), so that a reset can wait until there are none.
 */
final class GroundTruthLog {

    private final int capacity;
    private final ServerMetrics metrics;
    private final ArrayDeque<RequestTruth> records = new ArrayDeque<>();
    private long dropped;
    private final Map<LiveTruth, HttpConnection> serving = new IdentityHashMap<>();

    GroundTruthLog(int capacity, ServerMetrics metrics) {
        this.capacity = capacity;
        this.metrics = metrics;
    }

    /** Notes a request being served on {@code connection}; {@link #add} ends it. */
    synchronized void opened(LiveTruth live, HttpConnection connection) {
        serving.put(live, connection);
    }

    /**
     * Returns how many requests are being served. A request whose connection has closed no longer counts: its
     * record is finished by the close, except when the close came after its last bytes were queued, and then
     * nothing will ever finish it.
     */
    synchronized long inFlight() {
        serving.values().removeIf(HttpConnection::isClosed);
        return serving.size();
    }

    /** Notes a streamed request's time to its first token, as its first chunk was sent. */
    void firstTokenSent(long ttftNanos) {
        metrics.observeStreamedTtftNanos(ttftNanos);
    }

    /** Adds the finished record of {@code live}. */
    void add(LiveTruth live, RequestTruth truth) {
        metrics.observe(truth);
        synchronized (this) {
            serving.remove(live);
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
