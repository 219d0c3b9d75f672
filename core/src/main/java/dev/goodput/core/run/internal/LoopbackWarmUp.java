package dev.goodput.core.run.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;
import dev.goodput.core.transport.internal.ClientWarmUp;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a short closed-loop run against a loopback server of its own, once per JVM and transport, before the first
 * run that measures. It takes the path every request takes: the driver's start, the transport's request, send and
 * stamp, the socket's write and read, response decoding and parsing, the record, the recorder and the next user's
 * start. The user's server sees nothing of it.
 *
 * <p>Why: that code runs once per request, not once per token, so in a run of a few hundred requests much of it is
 * still interpreted, or being compiled on the other cores, when it is measured. Measured (docs/performance.md),
 * it added 0.3-0.5 ms to the median TTFT from send of a gate's first requests. The JIT compiler's first tiers take
 * a method after a few hundred calls and its last after about 5,000; {@value #REQUESTS} requests take 1.5 s with
 * Netty and 2.5-2.8 s with the JDK client on a 2-core machine, about 0.55 s of it loading classes that the first
 * run would load anyway. A warm-up request that fails stops the run: a client that cannot stream from a loopback
 * server cannot be trusted to measure another.
 */
final class LoopbackWarmUp {

    static final int REQUESTS = 2_000;

    /** Users at once: enough that reads, ends and starts overlap, as in a load test. */
    private static final int USERS = 4;

    /** Tokens per stream: few, as {@link ClientWarmUp} has warmed the per-token path already. */
    private static final int TOKENS = 4;

    /** Far longer than the warm-up ever takes; past it a loopback server or client is broken. */
    private static final Duration LIMIT = Duration.ofSeconds(30);

    /** The transports warmed up in this JVM, by name. Guarded by the class. */
    private static final Set<String> WARMED = new HashSet<>();

    private LoopbackWarmUp() {}

    /**
     * Runs the warm-up for {@code transports} unless this JVM has warmed them up already. A run that starts while
     * another's warm-up runs waits for it rather than share the cores with it; a warm-up that failed is tried again
     * (and fails again, loudly) by the next run, rather than leaving it to measure cold code without a word.
     */
    static synchronized void once(TransportProvider transports) {
        if (!WARMED.contains(transports.name())) {
            run(REQUESTS, transports);
            WARMED.add(transports.name());
        }
    }

    /**
     * Runs {@code requests} requests through a transport of {@code transports} against a loopback server of its own
     * and returns the run's result.
     *
     * @throws IllegalStateException naming the first request that did not succeed, or the server that did not start
     */
    static RunResult run(int requests, TransportProvider transports) {
        try (LoopbackStreamServer server = LoopbackStreamServer.start(ClientWarmUp.reads(false, TOKENS))) {
            // The canonical constructor, not Goodput.newRun: Goodput runs through RunEngine, which calls this class.
            RunSpec spec = new RunSpec(
                    ServerEndpoint.of("http://127.0.0.1:" + server.port(), "goodput-warm-up")
                            .withConnectTimeout(Duration.ofSeconds(5)),
                    WorkloadSpec.synthetic().inputTokens(3).outputTokens(TOKENS).build(),
                    Load.concurrency(USERS)
                            .requests(requests)
                            .duration(LIMIT)
                            .totalTimeout(LIMIT)
                            .drain(Duration.ofSeconds(1)),
                    List.of(),
                    RunSpec.DEFAULT_PERCENTILES,
                    RunSpec.DEFAULT_CONFIDENCE,
                    null,
                    RunSpec.DEFAULT_SEND_LAG_LIMIT,
                    null,
                    null,
                    false,
                    false,
                    ScrapeSettings.OFF,
                    Deployment.UNSTATED,
                    transports.name(),
                    false,
                    RunSpec.DEFAULT_PREFLIGHT_LOADING_WAIT,
                    false);
            RunResult result;
            try (RealTimeScheduler scheduler = new RealTimeScheduler(NanoClock.system());
                    Transport transport =
                            Transports.open(transports, spec.server(), NanoClock.system(), ReadTap.NONE)) {
                result = RunEngine.run(spec, scheduler, transport);
            }
            for (RequestRecord record : result.records()) {
                if (!record.isSuccess()) {
                    throw new IllegalStateException("the " + transports.name() + " transport's warm-up against its"
                            + " own loopback server failed: request " + record.index() + " ended " + record.outcome()
                            + " (" + record.errorDetail() + ")");
                }
            }
            return result;
        }
    }
}
