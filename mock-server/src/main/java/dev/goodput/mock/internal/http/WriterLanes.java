package dev.goodput.mock.internal.http;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A few single-threaded lanes that encode and write stream chunks. Engine threads hand each emission to its
 * stream's lane and return at once (the {@code TokenSink} contract); one lane per stream keeps its chunks in
 * order without locks, and several lanes let the writes of one engine step go out in parallel.
 */
final class WriterLanes implements AutoCloseable {

    private final ExecutorService[] lanes;
    private final AtomicInteger next = new AtomicInteger();

    WriterLanes(int count) {
        lanes = new ExecutorService[count];
        for (int i = 0; i < count; i++) {
            String name = "goodput-mock-writer-" + i;
            lanes[i] = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                Thread thread = new Thread(task, name);
                thread.setDaemon(true);
                return thread;
            });
        }
    }

    /** Returns the lane for a new stream (round robin), or the caller's thread if there are no lanes. */
    Executor assign() {
        if (lanes.length == 0) {
            return Runnable::run;
        }
        return lanes[Math.floorMod(next.getAndIncrement(), lanes.length)];
    }

    @Override
    public void close() {
        for (ExecutorService lane : lanes) {
            lane.shutdownNow();
        }
    }
}
