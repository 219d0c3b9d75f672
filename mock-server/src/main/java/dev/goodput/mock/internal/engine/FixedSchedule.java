package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The deterministic core of the {@link PerformanceModel.Mode#FIXED} engine, on whatever clock its caller passes
 * in: each generation's first emission is due TTFT after it starts and each further one TPOT after the previous.
 * A generation starts at its arrival or, when the model limits concurrent sequences and all are taken, when the
 * oldest queued one gets the slot a finishing generation frees (FCFS). Streams wait in a priority queue ordered by
 * their next due time, so thousands of them cost a few comparisons per emission. Not thread-safe; one thread (the
 * timer thread, or a test on virtual time) owns it, while {@link #snapshot()} may be read from any thread.
 */
final class FixedSchedule {

    private final PerformanceModel model;
    private final PriorityQueue<FixedStream> due = new PriorityQueue<>(
            Comparator.comparingLong((FixedStream stream) -> stream.nextNanos).thenComparingLong(s -> s.order));
    private final ArrayDeque<FixedStream> queued = new ArrayDeque<>();
    private long submitted;
    // Written only by the owning thread (so ++ is safe); volatile so that snapshot() can read them from any thread.
    private volatile long promptTokens;
    private volatile long generationTokens;
    private volatile long emissions;
    private volatile int active;
    private volatile int waiting;

    FixedSchedule(PerformanceModel model) {
        this.model = model;
    }

    /** Adds a generation: it starts at its arrival if a slot is free, else queues for one. */
    void submit(Generation generation, TokenSink sink) {
        FixedStream stream = new FixedStream(generation, sink, OutputLength.of(generation, model), model.seed());
        stream.order = submitted++;
        if (active < model.maxNumSeqs()) {
            begin(stream, generation.arrivalNanos());
        } else {
            queued.add(stream);
            waiting++;
        }
    }

    /** Returns when the next emission is due, or {@link Long#MAX_VALUE} when nothing is running. */
    long nextDueNanos() {
        FixedStream head = due.peek();
        return head == null ? Long.MAX_VALUE : head.nextNanos;
    }

    /** Delivers every emission due at or before {@code nowNanos}, each stamped with its own intended time. */
    void emitDue(long nowNanos) {
        FixedStream stream;
        while ((stream = due.peek()) != null && stream.nextNanos - nowNanos <= 0) {
            due.poll();
            if (emit(stream)) {
                stream.nextNanos += jittered(model.constantTpotNanos(), stream.random);
                due.add(stream);
            } else if (!stream.ended) {
                end(stream, stream.nextNanos); // its sink threw
            }
        }
    }

    /**
     * Ends now every running stream whose client went away, instead of at its next emission (which may be a long
     * TPOT away): a reset waits for the engine to be idle.
     */
    void dropCancelled(long nowNanos) {
        List<FixedStream> gone = new ArrayList<>();
        for (FixedStream stream : due) {
            if (stream.sink.isCancelled()) {
                gone.add(stream);
            }
        }
        for (FixedStream stream : gone) {
            due.remove(stream);
            end(stream, nowNanos);
            finishQuietly(stream, "abort", nowNanos);
        }
    }

    /** Finishes every generation, running or queued, with {@code "abort"}. */
    void abortAll(long nowNanos) {
        for (Iterable<FixedStream> streams : List.<Iterable<FixedStream>>of(due, queued)) {
            for (FixedStream stream : streams) {
                finishQuietly(stream, "abort", nowNanos);
            }
        }
        due.clear();
        queued.clear();
        active = 0;
        waiting = 0;
    }

    EngineSnapshot snapshot() {
        // No engine steps and no KV model: the simulated GPU of the fixed model is never busy.
        return new EngineSnapshot(active, waiting, 0, 0, 0, 0, promptTokens, generationTokens, emissions, 0);
    }

    private void begin(FixedStream stream, long startNanos) {
        long start = Math.max(startNanos, stream.generation.arrivalNanos());
        stream.nextNanos = start + jittered(model.constantTtftNanos(), stream.random);
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
            finishQuietly(next, "abort", freedNanos);
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
            // The first token comes alone, as a prefill samples one; then each step produces a chunk.
            int perStep = stream.produced == 0 ? 1 : model.tokensPerChunk();
            int count = Math.min(perStep, stream.output.tokens() - stream.produced);
            // Counters move before the sink is called, so a scrape never shows less than a client has received.
            if (stream.produced == 0) {
                promptTokens += stream.generation.promptTokens();
            }
            stream.produced += count;
            generationTokens += count;
            emissions++;
            boolean last = stream.produced >= stream.output.tokens();
            if (last) {
                end(stream, intended);
            }
            int unsent = stream.produced - stream.sent;
            if (last || stream.sent == 0 || unsent >= model.streamInterval()) {
                int first = stream.sent;
                stream.sent = stream.produced;
                stream.sink.onTokens(first, unsent, intended);
            }
            if (last) {
                stream.sink.onFinish(stream.output.finishReason(), intended);
            }
            return !last;
        } catch (RuntimeException sinkFailure) {
            // A failing sink must not stop the thread that serves every other stream.
            return false;
        }
    }

    private static void finishQuietly(FixedStream stream, String reason, long nanos) {
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

    private static final class FixedStream {
        final Generation generation;
        final TokenSink sink;
        final OutputLength output;
        final SplittableRandom random;
        long order;
        long nextNanos;
        int produced;
        int sent;
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
