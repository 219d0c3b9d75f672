package dev.goodput.core.testing;

import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.Transport;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link Transport} that answers each attempt with a scripted response on a {@link FakeScheduler}: headers
 * after a delay, then SSE payloads at given offsets from the send, then the end of the stream.
 */
public final class ScriptedTransport implements Transport {

    private final FakeScheduler scheduler;
    private final Function<StreamAttempt, Response> script;
    private final List<Long> sends = Collections.synchronizedList(new ArrayList<>());
    private int aborted;

    public ScriptedTransport(FakeScheduler scheduler, Function<StreamAttempt, Response> script) {
        this.scheduler = scheduler;
        this.script = script;
    }

    /** One scripted response. */
    public record Response(int status, long headersAfterNanos, List<Chunk> chunks, long endAfterNanos) {}

    /** Bytes delivered in one read at an offset from the send. */
    public record Chunk(long afterNanos, String text) {}

    /**
     * A vLLM-style streaming chat response: role chunk with the first token, {@code tokens} content events
     * {@code tpotNanos} apart starting {@code ttftNanos} after the send, finish reason on the last, a usage
     * chunk and [DONE].
     */
    public static Response chatStream(long ttftNanos, long tpotNanos, int tokens, int promptTokens) {
        List<Chunk> chunks = new ArrayList<>();
        chunks.add(new Chunk(ttftNanos, SseText.roleChunk()));
        for (int i = 0; i < tokens; i++) {
            boolean last = i == tokens - 1;
            chunks.add(new Chunk(ttftNanos + i * tpotNanos, SseText.contentChunk(" tok", last ? "length" : null)));
        }
        long end = ttftNanos + (tokens - 1) * tpotNanos;
        chunks.add(new Chunk(end, SseText.usageChunk(promptTokens, tokens) + SseText.DONE));
        return new Response(200, 1_000, chunks, end);
    }

    @Override
    public Exchange start(StreamAttempt request) {
        long sent = scheduler.now();
        sends.add(sent);
        Response response = script.apply(request);
        scheduler.schedule(
                sent + response.headersAfterNanos(),
                () -> request.onHeaders(
                        response.status(),
                        response.status() == 200 ? "text/event-stream" : "application/json",
                        scheduler.now()));
        for (Chunk chunk : response.chunks()) {
            scheduler.schedule(
                    sent + chunk.afterNanos(),
                    () -> request.onBytes(
                            ByteBuffer.wrap(chunk.text().getBytes(StandardCharsets.UTF_8)), scheduler.now()));
        }
        if (response.endAfterNanos() >= 0) {
            scheduler.schedule(sent + response.endAfterNanos(), () -> request.onEndOfStream(scheduler.now()));
        }
        return () -> aborted++;
    }

    /** Returns the instants at which requests were sent. */
    public List<Long> sends() {
        return List.copyOf(sends);
    }

    /** Returns how many exchanges were aborted. */
    public int aborted() {
        return aborted;
    }

    @Override
    public void close() {}
}
