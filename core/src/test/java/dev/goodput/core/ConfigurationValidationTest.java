package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad input gets an exception whose message names the setting and the value; nothing is silently ignored. */
class ConfigurationValidationTest {

    private static void rejects(Executable action, String message) {
        assertThatThrownBy(action::execute)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void should_reject_bad_load_profiles_naming_the_setting_and_value() {
        rejects(() -> Load.poisson(-2), "rate must be a finite number of requests/s above 0, was -2.0");
        rejects(
                () -> Load.constantRate(Double.POSITIVE_INFINITY),
                "rate must be a finite number of requests/s above 0, was Infinity");
        rejects(() -> Load.gamma(4, 0), "burstiness must be a finite value above 0, was 0.0");
        rejects(() -> Load.concurrency(0), "concurrency must be at least 1, was 0");
        rejects(() -> Load.poisson(1).requests(-1), "requests must be at least 0, was -1");
        rejects(() -> Load.poisson(1).duration(Duration.ZERO), "duration must be positive, was PT0S");
        rejects(
                () -> Load.poisson(1).thinkTime(Duration.ofSeconds(1)),
                "thinkTime applies to a closed loop (concurrency), not to an open loop");
        rejects(
                () -> Load.concurrency(4).maxConcurrency(2),
                "maxConcurrency applies to an open loop; a closed loop's concurrency is its user count");
        rejects(() -> Load.poisson(1).validate(), "a load profile needs a limit: set requests(n), duration(d) or both");
        rejects(
                () -> Load.poisson(1)
                        .requests(10)
                        .warmupRequests(6)
                        .cooldownRequests(4)
                        .validate(),
                "warmupRequests (6) + cooldownRequests (4) leave no measured request of requests (10)");
        rejects(
                () -> Load.poisson(1)
                        .duration(Duration.ofSeconds(5))
                        .cooldownRequests(1)
                        .validate(),
                "cooldownRequests (1) needs a request limit to know which are last");
        rejects(
                () -> Load.concurrency(2)
                        .requests(10)
                        .cooldown(Duration.ofSeconds(1))
                        .validate(),
                "cooldown (PT1S) in a closed loop needs a duration limit to know when the load period ends");
        rejects(
                () -> Load.poisson(1)
                        .duration(Duration.ofSeconds(2))
                        .warmup(Duration.ofSeconds(2))
                        .validate(),
                "warmup (PT2S) + cooldown (PT0S) leave no measured time of duration (PT2S)");
    }

    @Test
    void should_reject_bad_objectives() {
        rejects(
                () -> Objective.of(Metric.TTFT).percentile(0).atMost(Duration.ofMillis(1)),
                "percentile must be above 0 and at most 100, was 0.0");
        rejects(
                () -> Objective.of(Metric.TTFT).percentile(100.5).atMost(Duration.ofMillis(1)),
                "percentile must be above 0 and at most 100, was 100.5");
        rejects(
                () -> Objective.of(Metric.GOODPUT).atMost(Duration.ofMillis(1)),
                "metric GOODPUT is not a latency; a Duration bound (PT0.001S) does not apply");
        rejects(
                () -> Objective.of(Metric.ERROR_RATE).atMost(5),
                "threshold of ERROR_RATE is a ratio between 0 and 1, was 5.0");
        rejects(
                () -> Objective.of(Metric.GOODPUT).atLeast(-1),
                "threshold of GOODPUT must be a finite value of at least 0, was -1.0");
        assertThatThrownBy(() -> Objective.of(Metric.TTFT).atMost(Duration.ofMillis(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("choose percentile(p), mean() or max() of TTFT before the bound");
    }

    @Test
    void should_reject_bad_endpoints_and_runs() {
        rejects(
                () -> ServerEndpoint.of("localhost:8000", "m"),
                "baseUrl must be an absolute http or https URL, was 'localhost:8000'");
        rejects(() -> ServerEndpoint.of("http://127.0.0.1:8000", " "), "model must not be blank");
        ServerEndpoint server = ServerEndpoint.of("http://127.0.0.1:8000/v1/", "m");
        assertThat(server.baseUrl()).hasToString("http://127.0.0.1:8000");
        rejects(
                () -> Goodput.newRun(server).load(Load.poisson(1).requests(1)).build(),
                "a run needs a workload: call workload(...)");
        rejects(
                () -> Goodput.newRun(server)
                        .workload(WorkloadSpec.synthetic().outputTokens(1).build())
                        .load(Load.poisson(1).requests(1))
                        .objectives(Objective.of(Metric.TPOT).percentile(99).atMost(Duration.ofMillis(50)))
                        .build(),
                "an SLO on TPOT needs at least 2 output tokens per request, but the workload asks for 1");
        rejects(
                () -> Goodput.newRun(server)
                        .workload(WorkloadSpec.synthetic().build())
                        .load(Load.poisson(1).requests(1))
                        .confidence(1)
                        .build(),
                "confidence must be between 0 and 1 (exclusive), was 1.0");
        rejects(() -> RequestSpec.completion("x", 0), "maxTokens must be at least 1, was 0");
        rejects(
                () -> RequestSpec.completion("x", 4).withMinTokens(5),
                "minTokens must be between 0 and maxTokens (4), was 5");
    }

    @Test
    void should_name_the_missing_api_key_variable_without_leaking_anything() {
        ServerEndpoint server = ServerEndpoint.of("http://127.0.0.1:8000", "m")
                .withApiKeyFromEnvironment("GOODPUT_MISSING_KEY")
                .withEnvironment(Map.<String, String>of()::get);
        assertThatThrownBy(server::resolveApiKey)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the API key environment variable GOODPUT_MISSING_KEY is not set or is blank");
    }

    @Test
    void should_always_report_the_median_and_every_objective_percentile() {
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:8000", "m"))
                .workload(WorkloadSpec.synthetic().build())
                .load(Load.poisson(1).requests(1))
                .percentiles(99, 90)
                .objectives(Objective.of(Metric.TTFT).percentile(99.9).atMost(Duration.ofMillis(1)))
                .build();
        assertThat(spec.percentiles()).containsExactly(50.0, 90.0, 99.0, 99.9);
    }

    @Test
    void should_scale_counts_and_durations_but_not_rates() {
        Load scaled = Load.poisson(8)
                .requests(1000)
                .warmupRequests(100)
                .duration(Duration.ofSeconds(60))
                .scaled(0.1);
        assertThat(scaled.requests()).isEqualTo(100);
        assertThat(scaled.warmupRequests()).isEqualTo(10);
        assertThat(scaled.duration()).isEqualTo(Duration.ofSeconds(6));
        assertThat(scaled.rate()).isEqualTo(8.0);
        assertThat(Load.poisson(8).requests(3).scaled(0.01).requests()).isEqualTo(1);
    }

    @Test
    void should_build_the_same_synthetic_prompts_for_the_same_seed() {
        WorkloadSpec workload =
                WorkloadSpec.synthetic().inputTokens(32).outputTokens(8).seed(9).build();
        RequestSpec first = workload.request(3);
        assertThat(first)
                .isEqualTo(WorkloadSpec.synthetic()
                        .inputTokens(32)
                        .outputTokens(8)
                        .seed(9)
                        .build()
                        .request(3));
        assertThat(first.messages().get(0).content().split(" ")).hasSize(32);
        assertThat(first.promptTokens()).isEqualTo(32);
        assertThat(first.maxTokens()).isEqualTo(8);
        assertThat(first.ignoreEos()).isTrue();
        assertThat(workload.request(4)).isNotEqualTo(first);
        assertThat(List.of(workload.describe().get("seed"))).containsExactly(9L);
    }
}
