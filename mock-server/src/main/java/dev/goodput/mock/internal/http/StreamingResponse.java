package dev.goodput.mock.internal.http;

import dev.goodput.mock.Fault;
import dev.goodput.mock.internal.engine.TokenSink;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Streams one generation as server-sent events the way vLLM does, and injects the request's mid-stream fault.
 *
 * <p>Engine threads call the sink; each call is handed to the stream's writer lane, which encodes and writes
 * the chunk and records its true send time. The first chat chunk carries the role and goes out together with
 * the first token, as in vLLM (whose role chunk waits for the first engine output).
 */
final class StreamingResponse implements TokenSink {

    private final HttpConnection connection;
    private final Executor lane;
    private final ScheduledExecutorService timer;
    private final ChunkEncoder encoder;
    private final LiveTruth truth;
    private final GenerationRequest request;
    private final long outputSeed;
    private final FaultPlan plan;
    private final long stallNanos;
    private final boolean keepAlive;
    private final boolean closeAfterStream;

    // Engine-thread side (calls arrive in order), guarded by this.
    private boolean stallStarted;
    private List<Runnable> stalled;

    // Lane side.
    private boolean ended;
    private boolean faultFired;
    private boolean malformNext;
    private boolean roleSent;

    private volatile boolean cancelled;

    StreamingResponse(
            HttpConnection connection,
            Executor lane,
            ScheduledExecutorService timer,
            ChunkEncoder encoder,
            LiveTruth truth,
            GenerationRequest request,
            long outputSeed,
            FaultPlan plan,
            long stallNanos,
            boolean keepAlive,
            boolean closeAfterStream) {
        this.connection = connection;
        this.lane = lane;
        this.timer = timer;
        this.encoder = encoder;
        this.truth = truth;
        this.request = request;
        this.outputSeed = outputSeed;
        this.plan = plan;
        this.stallNanos = stallNanos;
        this.keepAlive = keepAlive;
        this.closeAfterStream = closeAfterStream;
    }

    /** Sends the response head; the events follow as the engine emits. */
    void start() {
        connection.onClose(() -> {
            cancelled = true;
            truth.finish(System.nanoTime(), "abort", 200);
        });
        connection.send(ByteBuffer.wrap(HttpResponses.eventStreamHead(keepAlive)), null);
    }

    @Override
    public void onTokens(int firstTokenIndex, int count, long intendedNanos) {
        dispatch(() -> emitTokens(firstTokenIndex, count, intendedNanos), firstTokenIndex);
    }

    @Override
    public void onFinish(String finishReason, long intendedNanos) {
        dispatch(() -> emitFinish(finishReason), Integer.MAX_VALUE);
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    private void dispatch(Runnable emission, int firstTokenIndex) {
        if (plan.fault() == Fault.STALL) {
            synchronized (this) {
                if (!stallStarted && firstTokenIndex >= plan.afterTokens()) {
                    stallStarted = true;
                    stalled = new ArrayList<>();
                    timer.schedule(this::resume, stallNanos, TimeUnit.NANOSECONDS);
                }
                if (stalled != null) {
                    stalled.add(emission);
                    return;
                }
            }
        }
        lane.execute(emission);
    }

    /** Ends the stall: what the engine emitted meanwhile goes out at once, in order. */
    private synchronized void resume() {
        stalled.forEach(lane::execute);
        stalled = null;
    }

    private void emitTokens(int first, int count, long intendedNanos) {
        if (ended || connection.isClosed()) {
            return;
        }
        if (strikesNow(first)) {
            return;
        }
        boolean last = first + count >= request.maxTokens();
        int completionTokens = first + count;
        WriteScratch scratch = WriteScratch.get();
        HttpResponses.Bytes out = scratch.events();
        role(out);
        int start = out.size();
        encoder.content(
                out, outputSeed, first, count, last ? "length" : null, request.continuousUsage(), completionTokens);
        malformIfDue(out, start);
        if (last) {
            end(out, completionTokens);
        }
        int chunk = truth.chunk(first, count, intendedNanos);
        ended = last;
        connection.send(scratch.frame(last), sentNanos -> {
            truth.chunkSent(chunk, sentNanos);
            if (last) {
                finish(sentNanos, "length");
            }
        });
    }

    private void emitFinish(String finishReason) {
        if (ended || connection.isClosed()) {
            return;
        }
        if (strikesNow(Integer.MAX_VALUE)) {
            return;
        }
        int completionTokens = truth.completionTokens();
        WriteScratch scratch = WriteScratch.get();
        HttpResponses.Bytes out = scratch.events();
        role(out);
        int start = out.size();
        // A natural stop ends with an empty content chunk carrying the reason, as vLLM's EOS step does; a model
        // that answered with a tool call stops for that reason.
        String reason = request.toolName() != null && completionTokens > request.reasoningTokens()
                ? "tool_calls"
                : finishReason;
        encoder.content(out, outputSeed, 0, 0, reason, request.continuousUsage(), completionTokens);
        malformIfDue(out, start);
        end(out, completionTokens);
        ended = true;
        connection.send(scratch.frame(true), sentNanos -> finish(sentNanos, reason));
    }

    /** Fires the mid-stream fault if it is due before this emission; returns whether the stream ended. */
    private boolean strikesNow(int firstTokenIndex) {
        if (faultFired || !plan.fault().isMidStream() || firstTokenIndex < plan.afterTokens()) {
            return false;
        }
        faultFired = true;
        switch (plan.fault()) {
            case STREAM_ERROR:
                WriteScratch scratch = WriteScratch.get();
                encoder.error(scratch.events(), 500, "Simulated engine failure (goodput mock fault stream-error)");
                encoder.done(scratch.events());
                ended = true;
                cancelled = true;
                connection.send(scratch.frame(true), sentNanos -> finish(sentNanos, "error"));
                return true;
            case DROPPED_CONNECTION:
                ended = true;
                cancelled = true;
                truth.finish(System.nanoTime(), "abort", 200);
                connection.close();
                return true;
            case MALFORMED_CHUNK:
                malformNext = true;
                return false;
            default:
                return false;
        }
    }

    private void role(HttpResponses.Bytes out) {
        if (request.chat() && !roleSent) {
            encoder.role(out, request.continuousUsage());
            roleSent = true;
        }
    }

    /** Cuts the event starting at {@code start} in half, leaving JSON no parser accepts. */
    private void malformIfDue(HttpResponses.Bytes out, int start) {
        if (malformNext) {
            malformNext = false;
            out.truncate(start + (out.size() - start) / 2);
            out.writeBytes(new byte[] {'\n', '\n'});
        }
    }

    private void end(HttpResponses.Bytes out, int completionTokens) {
        if (request.includeUsage()) {
            encoder.usageOnly(out, completionTokens);
        }
        if (plan.fault() != Fault.MISSING_DONE) {
            encoder.done(out);
        }
    }

    private void finish(long sentNanos, String finishReason) {
        truth.finish(sentNanos, finishReason, 200);
        cancelled = true;
        // A server that closes after each stream (llama.cpp does) still advertised keep-alive in the head.
        connection.endResponse(keepAlive && !closeAfterStream);
    }
}
