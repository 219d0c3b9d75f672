package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * The deterministic core of the continuous-batching engine: it plans one step at a time, like vLLM V1's
 * scheduler, on whatever clock its caller passes in. Not thread-safe; one thread (the runner, or a test on
 * virtual time) owns it.
 *
 * <p>Each step: generations that have arrived by the step's start join the waiting queue; cancelled ones are
 * dropped; every running sequence is scheduled first (decode-first: one token each, or the next chunk of an
 * unfinished prefill), and when one needs a KV block that is not there, the most recently admitted running
 * sequence is preempted (its blocks freed; it goes back to the front of the waiting queue to be recomputed).
 * Then, if nothing was preempted, the remaining token budget goes to waiting sequences in FCFS order while batch
 * slots and blocks allow, each charged only for the prompt tokens the prefix cache does not already hold. The
 * step lasts what {@link StepCost} says; at its end every sequence whose tokens are all computed samples a token
 * (a decode emits {@code tokensPerChunk}).
 */
final class BatchScheduler {

    private final PerformanceModel model;
    private final KvBlockPool pool;
    private final SplittableRandom jitterRandom;
    private final PriorityQueue<Sequence> notYetArrived =
            new PriorityQueue<>(Comparator.comparingLong((Sequence s) -> s.generation.arrivalNanos())
                    .thenComparingLong(s -> s.order));
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final List<Sequence> running = new ArrayList<>();
    private final SchedulerCounters counters = new SchedulerCounters();
    private long submitted;
    private volatile LongConsumer queueTimeObserver = nanos -> {};

    BatchScheduler(PerformanceModel model) {
        this.model = model;
        this.pool = new KvBlockPool(model.kvCacheTokens(), model.blockSize());
        this.jitterRandom = new SplittableRandom(model.seed());
    }

    /** Sets what is told each generation's queue time: from arrival to first scheduled, in nanoseconds. */
    void observeQueueTimes(LongConsumer observer) {
        this.queueTimeObserver = observer;
    }

    /** Adds a generation; it joins the waiting queue at the first step starting at or after its arrival. */
    void submit(Generation generation, TokenSink sink) {
        OutputLength output = OutputLength.of(generation, model);
        notYetArrived.add(new Sequence(generation, sink, output, submitted++, model.blockSize()));
    }

    boolean hasWork() {
        return !running.isEmpty() || !waiting.isEmpty() || !notYetArrived.isEmpty();
    }

    /**
     * Returns when the next step starts: right at the previous step's end while there is work, or at the next
     * arrival on an idle engine. Call only when {@link #hasWork()}.
     */
    long nextStepStart(long previousEndNanos) {
        if (!running.isEmpty() || !waiting.isEmpty()) {
            return previousEndNanos;
        }
        return Math.max(previousEndNanos, notYetArrived.element().generation.arrivalNanos());
    }

    /** Plans and takes the step starting at {@code startNanos}; the caller delivers its emissions on time. */
    StepPlan step(long startNanos) {
        List<StepPlan.Emission> dropped = dropCancelled(startNanos);
        while (!notYetArrived.isEmpty() && notYetArrived.peek().generation.arrivalNanos() <= startNanos) {
            Sequence arrived = notYetArrived.poll();
            if (arrived.promptTokens() >= model.maxModelLen()) {
                // vLLM rejects such a request up front; queued, it would block the FCFS queue forever.
                dropped.add(new StepPlan.Emission(arrived.sink, 0, 0, "abort", startNanos));
            } else {
                waiting.addLast(arrived);
            }
        }
        StepBatch batch = new StepBatch(model.maxNumBatchedTokens());
        boolean preempted = scheduleRunning(batch);
        if (!preempted) {
            admitWaiting(batch, startNanos);
        }
        long endNanos = startNanos + jittered(batch.costNanos(model));
        counters.busyNanos += endNanos - startNanos;
        List<StepPlan.Emission> emissions = advance(batch, endNanos);
        counters.steps++;
        return new StepPlan(startNanos, endNanos, batch.decodeSequences(), batch.prefillTokens(), dropped, emissions);
    }

    private List<StepPlan.Emission> dropCancelled(long nowNanos) {
        List<StepPlan.Emission> dropped = new ArrayList<>();
        for (Iterable<Sequence> queue : List.<Iterable<Sequence>>of(running, waiting)) {
            for (Sequence sequence : queue) {
                // Polled once per sequence: the flag may flip at any moment on another thread.
                if (sequence.sink.isCancelled()) {
                    sequence.dropped = true;
                    pool.release(sequence.blocks);
                    sequence.blocks.clear();
                    dropped.add(new StepPlan.Emission(sequence.sink, sequence.sentTokens, 0, "abort", nowNanos));
                }
            }
        }
        if (!dropped.isEmpty()) {
            running.removeIf(sequence -> sequence.dropped);
            waiting.removeIf(sequence -> sequence.dropped);
        }
        return dropped;
    }

    private boolean scheduleRunning(StepBatch batch) {
        boolean preempted = false;
        int index = 0;
        while (index < running.size() && batch.budget() > 0) {
            Sequence sequence = running.get(index);
            boolean decoding = sequence.isDecoding();
            int wanted = decoding ? model.tokensPerChunk() : sequence.contextTokens() - sequence.computedTokens;
            int tokens = Math.min(wanted, batch.budget());
            int newBlocks = pool.blocksFor(sequence.computedTokens + tokens) - sequence.blocks.size();
            boolean preemptedItself = false;
            while (newBlocks > pool.availableBlocks() && !preemptedItself) {
                Sequence victim = running.remove(running.size() - 1);
                preempt(victim);
                preempted = true;
                preemptedItself = victim == sequence;
            }
            if (preemptedItself) {
                break; // nothing admitted after it was left to make room
            }
            allocate(sequence, newBlocks);
            batch.add(sequence, sequence.computedTokens, tokens, decoding);
            index++;
        }
        return preempted;
    }

    private void preempt(Sequence victim) {
        pool.release(victim.blocks);
        victim.blocks.clear();
        victim.computedTokens = 0;
        victim.registeredBlocks = 0;
        waiting.addFirst(victim);
        counters.preemptions++;
    }

    private void admitWaiting(StepBatch batch, long startNanos) {
        while (!waiting.isEmpty() && batch.budget() > 0 && running.size() < model.maxNumSeqs()) {
            Sequence sequence = waiting.peekFirst();
            List<KvBlockPool.Block> hits = List.of();
            if (model.prefixCaching()) {
                // At least one token is always computed, so a fully cached prompt still yields a first token.
                hits = pool.lookup(sequence.blockHashes, (sequence.contextTokens() - 1) / pool.blockSize());
            }
            int cachedTokens = hits.size() * pool.blockSize();
            int tokens = Math.min(sequence.contextTokens() - cachedTokens, batch.budget());
            int newBlocks = pool.blocksFor(cachedTokens + tokens) - hits.size();
            if (!pool.canAllocate(hits, newBlocks)) {
                break; // FCFS: nobody overtakes the head of the queue
            }
            waiting.pollFirst();
            if (!sequence.scheduledBefore) {
                // vLLM's queue time ends at the first scheduling; a preempted sequence's second wait is not in it.
                sequence.scheduledBefore = true;
                queueTimeObserver.accept(startNanos - sequence.generation.arrivalNanos());
            }
            if (model.prefixCaching()) {
                counters.prefixQueries += sequence.contextTokens();
                counters.prefixHits += cachedTokens;
            }
            pool.acquire(hits);
            sequence.blocks.addAll(hits);
            sequence.computedTokens = cachedTokens;
            sequence.registeredBlocks = hits.size();
            allocate(sequence, newBlocks);
            running.add(sequence);
            batch.add(sequence, cachedTokens, tokens, false);
        }
    }

    private void allocate(Sequence sequence, int newBlocks) {
        for (int i = 0; i < newBlocks; i++) {
            sequence.blocks.add(pool.allocate());
        }
    }

    private List<StepPlan.Emission> advance(StepBatch batch, long endNanos) {
        List<StepPlan.Emission> emissions = new ArrayList<>();
        for (StepBatch.Entry entry : batch.entries()) {
            Sequence sequence = entry.sequence();
            sequence.computedTokens += entry.tokens();
            registerFullPromptBlocks(sequence);
            if (sequence.computedTokens < sequence.contextTokens()) {
                continue; // a prefill chunk that does not finish the prompt samples nothing
            }
            int remaining = sequence.output.tokens() - sequence.outputTokens;
            int count = entry.decoding() ? Math.min(entry.tokens(), remaining) : 1;
            if (sequence.outputTokens == 0) {
                counters.promptTokens += sequence.promptTokens();
            }
            boolean done = sequence.outputTokens + count >= sequence.output.tokens();
            sequence.outputTokens += count;
            sequence.computedTokens = sequence.contextTokens() - 1;
            counters.generationTokens += count;
            int unsent = sequence.outputTokens - sequence.sentTokens;
            if (done || sequence.sentTokens == 0 || unsent >= model.streamInterval()) {
                String finish = done ? sequence.output.finishReason() : null;
                emissions.add(new StepPlan.Emission(sequence.sink, sequence.sentTokens, unsent, finish, endNanos));
                sequence.sentTokens = sequence.outputTokens;
            }
            if (done) {
                pool.release(sequence.blocks);
                sequence.blocks.clear();
                running.remove(sequence);
            }
        }
        return emissions;
    }

    private void registerFullPromptBlocks(Sequence sequence) {
        if (!model.prefixCaching()) {
            return;
        }
        int fullBlocks = Math.min(sequence.blockHashes.length, sequence.computedTokens / pool.blockSize());
        while (sequence.registeredBlocks < fullBlocks) {
            int block = sequence.registeredBlocks++;
            pool.register(sequence.blocks.get(block), sequence.blockHashes[block]);
        }
    }

    private long jittered(long nanos) {
        double jitter = model.jitter();
        return jitter == 0 ? nanos : Math.round(nanos * (1 + jitter * (2 * jitterRandom.nextDouble() - 1)));
    }

    /** Finishes every generation with {@code "abort"} (the engine is closing). */
    List<StepPlan.Emission> abortAll(long nowNanos) {
        List<StepPlan.Emission> aborted = new ArrayList<>();
        for (Iterable<Sequence> queue : List.<Iterable<Sequence>>of(running, waiting, notYetArrived)) {
            for (Sequence sequence : queue) {
                pool.release(sequence.blocks);
                sequence.blocks.clear();
                aborted.add(new StepPlan.Emission(sequence.sink, sequence.sentTokens, 0, "abort", nowNanos));
            }
        }
        running.clear();
        waiting.clear();
        notYetArrived.clear();
        return aborted;
    }

    EngineSnapshot snapshot() {
        double usage = pool.totalBlocks() == 0 ? 0 : (double) pool.usedBlocks() / pool.totalBlocks();
        return new EngineSnapshot(
                running.size(),
                waiting.size() + notYetArrived.size(),
                usage,
                counters.prefixQueries,
                counters.prefixHits,
                counters.preemptions,
                counters.promptTokens,
                counters.generationTokens,
                counters.steps,
                counters.busyNanos);
    }

    /** The running counters behind {@link EngineSnapshot}. */
    private static final class SchedulerCounters {
        long prefixQueries;
        long prefixHits;
        long preemptions;
        long promptTokens;
        long generationTokens;
        long steps;
        long busyNanos;
    }
}
