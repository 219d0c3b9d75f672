package dev.goodput.mock.internal.http;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where stream chunks are encoded and written. With no lanes (the default) the engine thread that emits a chunk
 * writes it: the socket is non-blocking, so this never blocks the engine, and it saves a thread hand-off per
 * chunk. With lanes, engine threads hand each emission to its stream's single-threaded lane and return at once;
 * one lane per stream keeps its chunks in order without locks.
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

    /**
     * Returns a lane, or {@code fallback} if there are no lanes: for whole (non-streaming) bodies, whose JSON
     * encoding is too slow to do on an engine thread that other streams' timing depends on.
     */
    Executor assignOr(Executor fallback) {
        return lanes.length == 0 ? fallback : assign();
    }

    @Override
    public void close() {
        for (ExecutorService lane : lanes) {
            lane.shutdownNow();
        }
    }
}
