package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine of a {@link PerformanceModel.Mode#FIXED} model: no batching; each generation's first emission is due
 * TTFT after it starts and each further one TPOT after the previous (intended times, so delivery lateness never
 * accumulates). A generation starts at its arrival, or, when the model limits concurrent sequences and all are
 * taken, when the oldest queued one gets the slot a finishing generation frees (FCFS). One timer thread keeps
 * every stream in a priority queue ordered by its next due time, which sustains thousands of concurrent streams.
 */
final class FixedEngine implements InferenceEngine {

    private final PerformanceModel model;
    private final long ttftNanos;
    private final long tpotNanos;
    private final ConcurrentLinkedQueue<FixedStream> submissions = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<FixedStream> due = new PriorityQueue<>(
            Comparator.comparingLong((FixedStream stream) -> stream.nextNanos).thenComparingLong(s -> s.order));
    private final ArrayDeque<FixedStream> queued = new ArrayDeque<>();
    private final Thread thread;
    private final AtomicInteger pending = new AtomicInteger();
    private final EmissionLateness lateness = new EmissionLateness();
    private long submitted;
    private volatile boolean closed;
    // Written only by the timer thread (so ++ is safe); volatile so that snapshot() can read them from any thread.
    private volatile long promptTokens;
    private volatile long generationTokens;
    private volatile long emissions;
    private volatile int active;
    private volatile int waiting;

    FixedEngine(PerformanceModel model) {
        this.model = model;
        this.ttftNanos = model.constantTtftNanos();
        this.tpotNanos = model.constantTpotNanos();
        this.thread = new Thread(this::run, "goodput-mock-fixed-engine");
        thread.setDaemon(true);
    }

    FixedEngine start() {
        thread.start();
        return this;
    }

    @Override
    public void submit(Generation generation, TokenSink sink) {
        if (closed) {
            sink.onFinish("abort", System.nanoTime());
            return;
        }
        pending.incrementAndGet();
        submissions.add(new FixedStream(generation, sink, OutputLength.of(generation, model), model.seed()));
        LockSupport.unpark(thread);
    }

    private void run() {
        while (!closed) {
            admitSubmissions();
            FixedStream head = due.peek();
            if (head == null) {
                LockSupport.park(this);
            } else if (PreciseClock.parkTowards(head.nextNanos)) {
                PreciseClock.spinUntil(head.nextNanos);
                emitDue(System.nanoTime());
            }
        }
        admitSubmissions();
        long now = System.nanoTime();
        for (Iterable<FixedStream> streams : List.<Iterable<FixedStream>>of(due, queued)) {
            for (FixedStream stream : streams) {
                finish(stream, "abort", now);
            }
        }
        due.clear();
        queued.clear();
        active = 0;
        waiting = 0;
    }

    private void admitSubmissions() {
        FixedStream stream;
        while ((stream = submissions.poll()) != null) {
            stream.order = submitted++;
            if (active < model.maxNumSeqs()) {
                begin(stream, stream.generation.arrivalNanos());
            } else {
                queued.add(stream);
                waiting++;
            }
            pending.decrementAndGet();
        }
    }

    private void begin(FixedStream stream, long startNanos) {
        stream.nextNanos = Math.max(startNanos, stream.generation.arrivalNanos()) + jittered(ttftNanos, stream.random);
        due.add(stream);
        active++;
    }

    /** Frees the stream's slot at {@code freedNanos} and hands it to the oldest queued stream still wanted. */
    private void end(FixedStream stream, long freedNanos) {
        stream.ended = true;
        active--;
        FixedStream next;
        while ((next = queued.poll()) != null) {
            waiting--;
            if (!next.sink.isCancelled()) {
                begin(next, freedNanos);
                return;
            }
            finish(next, "abort", freedNanos);
        }
    }

    private void emitDue(long now) {
        FixedStream stream;
        while ((stream = due.peek()) != null && stream.nextNanos - now <= 0) {
            due.poll();
            if (emit(stream)) {
                stream.nextNanos += jittered(tpotNanos, stream.random);
                due.add(stream);
            } else if (!stream.ended) {
                end(stream, stream.nextNanos); // its sink threw
            }
        }
    }

    /** Delivers one emission; returns whether the stream goes on. */
    private boolean emit(FixedStream stream) {
        long intended = stream.nextNanos;
        try {
            if (stream.sink.isCancelled()) {
                end(stream, intended);
                stream.sink.onFinish("abort", intended);
                return false;
            }
            int first = stream.emitted;
            int count = Math.min(model.tokensPerChunk(), stream.output.tokens() - first);
            // Counters move before the sink is called, so a scrape never shows less than a client has received.
            if (first == 0) {
                promptTokens += stream.generation.promptTokens();
            }
            stream.emitted += count;
            generationTokens += count;
            emissions++;
            boolean last = stream.emitted >= stream.output.tokens();
            if (last) {
                end(stream, intended);
            }
            stream.sink.onTokens(first, count, intended);
            lateness.record(System.nanoTime() - intended);
            if (last) {
                stream.sink.onFinish(stream.output.finishReason(), intended);
            }
            return !last;
        } catch (RuntimeException sinkFailure) {
            // A failing sink must not stop the timer thread that serves every other stream.
            return false;
        }
    }

    private void finish(FixedStream stream, String reason, long nanos) {
        try {
            stream.sink.onFinish(reason, nanos);
        } catch (RuntimeException ignored) {
            // Nothing else to tell this stream.
        }
    }

    private long jittered(long nanos, SplittableRandom random) {
        double jitter = model.jitter();
        return jitter == 0 ? nanos : Math.round(nanos * (1 + jitter * (2 * random.nextDouble() - 1)));
    }

    /** Returns how late emissions were delivered against their intended times. */
    EmissionLateness lateness() {
        return lateness;
    }

    @Override
    public EngineSnapshot snapshot() {
        return new EngineSnapshot(
                active, waiting + pending.get(), 0, 0, 0, 0, promptTokens, generationTokens, emissions);
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        FixedStream stream;
        while ((stream = submissions.poll()) != null) {
            finish(stream, "abort", System.nanoTime());
        }
    }

    private static final class FixedStream {
        final Generation generation;
        final TokenSink sink;
        final OutputLength output;
        final SplittableRandom random;
        long order;
        long nextNanos;
        int emitted;
        boolean ended;

        FixedStream(Generation generation, TokenSink sink, OutputLength output, long modelSeed) {
            this.generation = generation;
            this.sink = sink;
            this.output = output;
            // Jitter draws its own stream of numbers, independent of the output-length draw.
            this.random = new SplittableRandom(OutputLength.mix(generation.seed(), modelSeed) + 0x5DEECE66DL);
        }
    }
}
