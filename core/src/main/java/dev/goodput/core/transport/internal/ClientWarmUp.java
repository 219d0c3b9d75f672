package dev.goodput.core.transport.internal;

import dev.goodput.core.record.Phase;
import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the client's read path (SSE parsing, chunk decoding, timestamps, gaps, the record) over synthetic chat and
 * completion streams, once per JVM, before the first transport sends anything. Interpreted code is several times
 * slower than compiled code, and the first tokens of a run would otherwise be parsed, and their successors
 * stamped, while the JIT compiler catches up. No network is involved: the server sees nothing of it.
 *
 * <p>It covers the path every token takes. The path every request takes, the HTTP client's code included, is
 * warmed up before a JVM's first run with each transport by a short run against a loopback server of its own
 * that streams these {@link #reads} ({@code LoopbackWarmUp}).
 */
public final class ClientWarmUp {

    /** About 26,000 events: past the JIT's compile thresholds for every method on the path, in 100-300 ms. */
    private static final int STREAMS = 400;

    private static final int EVENTS_PER_STREAM = 64;
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private ClientWarmUp() {}

    /** Runs the warm-up if no transport of this JVM has run it yet. */
    static void once() {
        if (DONE.compareAndSet(false, true)) {
            run(STREAMS);
        }
    }

    /** Feeds {@code streams} synthetic streams through requests that are never sent; returns the events fed. */
    static long run(int streams) {
        byte[][] chat = reads(true, EVENTS_PER_STREAM);
        byte[][] completion = reads(false, EVENTS_PER_STREAM);
        RequestListener ignore = new RequestListener() {
            @Override
            public void retrying(InFlightRequest request, long waitNanos) {}

            @Override
            public void finished(InFlightRequest request, FinishedRequest finished) {}
        };
        StreamSettings settings = StreamSettings.of(true);
        RequestSpec spec = RequestSpec.completion("warm-up", EVENTS_PER_STREAM);
        long nanos = 0;
        for (int i = 0; i < streams; i++) {
            InFlightRequest request =
                    new InFlightRequest(i, Phase.WARMUP, spec, nanos, settings, RetryRule.NEVER, ignore);
            MeasuredAttempt attempt = request.send(nanos, false);
            attempt.onHeaders(200, "text/event-stream", nanos);
            for (byte[] read : i % 2 == 0 ? chat : completion) {
                nanos += 1_000;
                attempt.onBytes(ByteBuffer.wrap(read), nanos);
            }
            attempt.onEndOfStream(nanos);
            if (request.record() == null || !request.record().isSuccess()) {
                throw new IllegalStateException("the client's warm-up stream did not parse: " + request.record());
            }
        }
        return (long) streams * (EVENTS_PER_STREAM + 2); // the content events, the usage event and [DONE]
    }

    /**
     * One stream of {@code events} content events as vLLM writes it (chat or completion chunks), then its usage
     * event and {@code [DONE]}, cut into reads of one to three events.
     */
    public static byte[][] reads(boolean chat, int events) {
        String prefix = chat
                ? "data: {\"id\":\"chatcmpl-warm\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"m\","
                        + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
                : "data: {\"id\":\"cmpl-warm\",\"object\":\"text_completion\",\"created\":0,\"model\":\"m\","
                        + "\"choices\":[{\"index\":0,\"text\":\"";
        String suffix = chat ? "\"},\"logprobs\":null,\"finish_reason\":" : "\",\"logprobs\":null,\"finish_reason\":";
        List<String> lines = new ArrayList<>();
        for (int k = 0; k < events; k++) {
            String finish = k == events - 1 ? "\"length\"" : "null";
            lines.add(
                    prefix + " word" + k + suffix + finish + "}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":"
                            + (k + 1) + ",\"total_tokens\":" + (k + 4) + "}}\n\n");
        }
        lines.add(
                "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"m\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":" + events
                        + ",\"total_tokens\":"
                        + (events + 3) + "}}\n\n");
        lines.add("data: [DONE]\n\n");
        List<byte[]> reads = new ArrayList<>();
        int i = 0;
        int size = 1;
        while (i < lines.size()) {
            StringBuilder read = new StringBuilder();
            for (int k = 0; k < size && i < lines.size(); k++) {
                read.append(lines.get(i++));
            }
            reads.add(read.toString().getBytes(StandardCharsets.UTF_8));
            size = size % 3 + 1;
        }
        return reads.toArray(new byte[0][]);
    }
}
