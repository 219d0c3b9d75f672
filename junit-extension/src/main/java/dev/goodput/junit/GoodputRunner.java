package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * Runs load from inside a test method against the test's server under test, for gates that need more than
 * one run or a workload the annotations cannot say. Declare a parameter of this type; the extension resolves
 * the server as for annotated gates, applies {@code goodput.load.scale}, and writes every run's reports.
 *
 * <pre>{@code
 * @Test
 * void prefill_heavy_traffic_keeps_ttft(GoodputRunner goodput) {
 *     RunResult result = goodput.run(
 *             Workload.synthetic().inputTokens(2048).outputTokens(16).build(),
 *             LoadProfile.poisson(2).requests(200));
 *     assertThat(result).ttft().percentile(90).isLessThan(Duration.ofSeconds(1));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface GoodputRunner {

    /** Returns the server under test. */
    ServerEndpoint server();

    /** Runs a workload at a load profile and judges the objectives; the verdicts are in the result. */
    RunResult run(WorkloadSpec workload, Load load, SloSpec... objectives);

    /**
     * Runs a spec built from a builder already bound to the server under test; {@code configure} sets the rest.
     */
    RunResult run(UnaryOperator<Goodput.RunBuilder> configure);
}
