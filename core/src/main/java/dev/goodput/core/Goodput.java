package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.client.HttpTransport;
import dev.goodput.core.internal.driver.RealTimeScheduler;
import dev.goodput.core.internal.driver.RunEngine;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Runs load against an OpenAI-compatible server and measures it.
 *
 * <pre>{@code
 * RunResult result = Goodput.run(
 *         ServerEndpoint.of("http://127.0.0.1:8000", "my-model"),
 *         WorkloadSpec.synthetic().inputTokens(256).outputTokens(128).build(),
 *         Load.poisson(8).requests(2000).warmupRequests(100),
 *         Objective.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500)));
 * }</pre>
 *
 * <p>A run blocks the calling thread until every request has ended, at the latest one drain period after the
 * last request was created. It never throws because of what the server did: failures, timeouts and
 * cancellations are outcomes in the result.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Goodput {

    private Goodput() {}

    /** Starts building a run against the given server. */
    public static RunSpec.Builder newRun(ServerEndpoint server) {
        return new RunSpec.Builder(server);
    }

    /** Runs a workload at a load profile and judges the objectives. */
    public static RunResult run(ServerEndpoint server, WorkloadSpec workload, Load load, Objective... objectives) {
        return run(server, workload, load, List.of(objectives));
    }

    /** Runs a workload at a load profile and judges the objectives. */
    public static RunResult run(ServerEndpoint server, WorkloadSpec workload, Load load, List<Objective> objectives) {
        return newRun(server)
                .workload(workload)
                .load(load)
                .objectives(objectives)
                .run();
    }

    /**
     * Runs a spec on real time.
     *
     * @throws IllegalStateException if the API key variable is named but not set, or the thread is interrupted
     */
    public static RunResult run(RunSpec spec) {
        NanoClock clock = NanoClock.system();
        try (RealTimeScheduler scheduler = new RealTimeScheduler(clock);
                HttpTransport transport = new HttpTransport(spec.server(), clock)) {
            return RunEngine.run(spec, scheduler, transport);
        }
    }
}
