package dev.goodput.core.shard.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's record of which shards have checked in, and the start instant once all have. Every method is
 * synchronized on this object, which is also the monitor that check-ins wait on; deadlines are on
 * {@code System.nanoTime()} so that a fake wall clock does not change how long anything waits.
 */
final class CheckIns {

    private final String runId;
    private final int count;
    private final long startMarginNanos;
    private final WallClock clock;
    private final Duration timeout;
    private final long deadlineNanoTime;
    private final boolean[] checkedIn;
    private final boolean[] answered;
    private boolean released;
    private long agreedStartEpochNanos;
    private String failure;

    /** Starts counting the timeout now. */
    CheckIns(String runId, int count, long startMarginNanos, WallClock clock, Duration timeout) {
        this.runId = runId;
        this.count = count;
        this.startMarginNanos = startMarginNanos;
        this.clock = clock;
        this.timeout = timeout;
        this.deadlineNanoTime = System.nanoTime() + timeout.toNanos();
        this.checkedIn = new boolean[count];
        this.answered = new boolean[count];
    }

    /**
     * Returns why a check-in does not belong to this barrier, or {@code null} if it does. A different run
     * identity is checked first: the index and count of another run's shard mean nothing here.
     */
    String refusal(String shardRunId, int index, int shardCount) {
        if (!runId.equals(shardRunId)) {
            return "runId = '" + shardRunId + "' of shard " + index + " differs from the coordinator's runId = '"
                    + runId + "'";
        }
        if (shardCount != count) {
            return "count = " + shardCount + " of shard " + index + " differs from the coordinator's count = " + count;
        }
        if (index < 0 || index >= count) {
            return "index = " + index + " is out of range 0.." + (count - 1) + " for count = " + count;
        }
        return null;
    }

    /**
     * Checks {@code index} in (again, for a restarted shard) and waits for the agreed start instant on the
     * coordinator's clock, which the last check-in sets to its own moment plus the start margin.
     *
     * @throws StartBarrierException if the deadline passes first or the barrier was closed
     */
    synchronized long checkInAndAwait(int index) throws InterruptedException {
        checkedIn[index] = true;
        if (!released && failure == null && missing().isEmpty()) {
            agreedStartEpochNanos = clock.epochNanos() + startMarginNanos;
            released = true;
            notifyAll();
        }
        while (!released && failure == null) {
            long remaining = deadlineNanoTime - System.nanoTime();
            if (remaining <= 0) {
                fail("no agreed start for runId = '" + runId + "': shard(s) " + missing()
                        + " never checked in within timeout = "
                        + timeout + " (checked in: " + checkedInIndices() + ")");
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        if (failure != null) {
            throw new StartBarrierException(failure);
        }
        return agreedStartEpochNanos;
    }

    /** Ends the barrier without a start: every waiting check-in is answered with {@code message}. */
    synchronized void fail(String message) {
        if (!released && failure == null) {
            failure = message;
            notifyAll();
        }
    }

    /** Records that {@code index} has received the start instant. */
    synchronized void answered(int index) {
        answered[index] = true;
        notifyAll();
    }

    /**
     * Waits until every shard has received the start instant, or until {@code untilNanoTime}; returns whether
     * all have.
     */
    synchronized boolean awaitAllAnswered(long untilNanoTime) throws InterruptedException {
        while (!allAnswered()) {
            long remaining = untilNanoTime - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        return true;
    }

    /** Returns the indices that have not checked in yet, in ascending order. */
    synchronized List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            if (!checkedIn[index]) {
                missing.add(index);
            }
        }
        return missing;
    }

    synchronized boolean isReleased() {
        return released;
    }

    private List<Integer> checkedInIndices() {
        List<Integer> indices = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            if (checkedIn[index]) {
                indices.add(index);
            }
        }
        return indices;
    }

    private boolean allAnswered() {
        for (boolean received : answered) {
            if (!received) {
                return false;
            }
        }
        return true;
    }
}
