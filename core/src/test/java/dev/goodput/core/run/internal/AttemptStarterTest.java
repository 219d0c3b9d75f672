package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.NanoClock;
import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.workload.RequestSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AttemptStarterTest {

    private final Map<Long, String> startedOn = new ConcurrentHashMap<>();
    private final AttemptStarter starter = new AttemptStarter(threadRecording(startedOn), NanoClock.system());
    private final DirectRequests requests = new DirectRequests();
    private final ExecutorService readingThread = Executors.newSingleThreadExecutor(named("reading-thread"));

    @AfterEach
    void stopReadingThread() {
        readingThread.shutdownNow();
    }

    @Test
    void should_start_only_what_this_thread_queued_and_leave_another_thread_s_attempt_to_it() throws Exception {
        MeasuredAttempt ownAttempt = attempt(0);
        MeasuredAttempt readersAttempt = attempt(1);
        starter.queue(ownAttempt);
        readingThread.submit(() -> starter.queue(readersAttempt)).get();

        starter.startQueued();
        assertThat(startedOn)
                .containsOnlyKeys(0L)
                .containsEntry(0L, Thread.currentThread().getName());

        readingThread.submit(starter::startQueued).get();
        assertThat(startedOn).containsEntry(1L, "reading-thread").hasSize(2);
    }

    private MeasuredAttempt attempt(long index) {
        return requests.send(index, RequestSpec.completion("a prompt", 4), System.nanoTime());
    }

    private static Transport threadRecording(Map<Long, String> startedOn) {
        return new Transport() {
            @Override
            public Exchange start(StreamAttempt attempt) {
                startedOn.put(attempt.requestIndex(), Thread.currentThread().getName());
                return () -> {};
            }

            @Override
            public void close() {}
        };
    }

    private static ThreadFactory named(String name) {
        return runnable -> new Thread(runnable, name);
    }
}
