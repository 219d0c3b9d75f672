package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Limits;
import dev.goodput.core.load.Load;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
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
    void should_reject_bad_loads_naming_the_setting_and_value() {
        rejects(() -> Load.poisson(-2), "rate = -2.0 must be a finite number of requests/s above 0");
        rejects(
                () -> Load.constantRate(Double.POSITIVE_INFINITY),
                "rate = Infinity must be a finite number of requests/s above 0");
        rejects(() -> Load.gamma(4, 0), "burstiness = 0.0 must be a finite value above 0");
        rejects(() -> Load.concurrency(0), "concurrency = 0 must be at least 1");
        rejects(() -> Load.poisson(1).requests(-1), "requests = -1 must be at least 1");
        rejects(() -> Load.poisson(1).requests(0), "requests = 0 must be at least 1");
        rejects(() -> Load.poisson(1).duration(Duration.ZERO), "duration = 0 s must be positive");
        rejects(() -> Load.poisson(1).requests(5).drain(Duration.ofMillis(-1)), "drain = -1 ms must not be negative");
        rejects(() -> Load.poisson(1).requests(5).retries(11), "retries = 11 must be between 0 and 10");
        rejects(
                () -> Load.poisson(1).requests(5).thinkTime(Duration.ofSeconds(1)),
                "thinkTime applies to a closed loop (concurrency), not to poisson 1.0 req/s");
        rejects(
                () -> Load.constantRate(1).requests(5).seed(3),
                "seed applies to random arrivals (poisson or gamma), not to constant 1.0 req/s");
        rejects(
                () -> Load.concurrency(4).requests(5).maxConcurrency(2),
                "maxConcurrency applies to an open loop; a closed loop's concurrency is its user count");
        rejects(() -> Load.of(Load.poisson(1), Limits.none()), "a load needs a limit: set requests, duration or both");
        rejects(
                () -> Load.poisson(1).requests(10).warmupRequests(6).cooldownRequests(4),
                "warmupRequests (6) + cooldownRequests (4) leave no measured request of requests (10)");
        rejects(
                () -> Load.poisson(1).duration(Duration.ofSeconds(5)).cooldownRequests(1),
                "cooldownRequests (1) needs a request limit (requests) to know which are last");
        rejects(
                () -> Load.concurrency(2).requests(10).cooldown(Duration.ofSeconds(1)),
                "cooldown (1 s) in a closed loop needs a duration limit (duration) to know when the load period"
                        + " ends");
        rejects(
                () -> Load.poisson(1).duration(Duration.ofSeconds(2)).warmup(Duration.ofSeconds(2)),
                "warmup (2 s) + cooldown (0 s) leave no measured time of duration (2 s)");
    }

    @Test
    void should_name_every_setting_a_refusal_is_about() {
        assertThatThrownBy(() -> Load.poisson(1).requests(10).warmupRequests(10))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.settings()).containsExactly("warmupRequests", "cooldownRequests", "requests");
                    assertThat(e.isSingleValue()).isFalse();
                });
        assertThatThrownBy(() -> Load.poisson(1).requests(10).totalTimeout(Duration.ofSeconds(-3)))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.settings()).containsExactly("totalTimeout");
                    assertThat(e.value()).isEqualTo(Duration.ofSeconds(-3));
                    assertThat(e.requirement()).isEqualTo("must be positive");
                });
    }

    @Test
    void should_keep_each_kind_of_arrivals_to_its_own_settings() {
        Load closed = Load.concurrency(3).thinkTime(Duration.ofMillis(20)).requests(9);
        assertThat(closed.arrivals()).isEqualTo(new Arrivals.ClosedLoop(3, Duration.ofMillis(20)));
        assertThat(closed.arrivals().isOpenLoop()).isFalse();
        Load open = Load.gamma(4, 0.5).seed(7).requests(9).maxConcurrency(2);
        assertThat(open.arrivals()).isEqualTo(new Arrivals.Gamma(4, 0.5, 7));
        assertThat(open.maxConcurrency()).hasValue(2);
        assertThat(open.seed(8).arrivals()).isEqualTo(new Arrivals.Gamma(4, 0.5, 8));
        assertThat(((Arrivals.AtRate) open.arrivals()).atRate(6)).isEqualTo(new Arrivals.Gamma(6, 0.5, 7));
        assertThat(Load.poisson(2)
                        .requests(5)
                        .warmupRequests(2)
                        .warmupRequests(0)
                        .warmup())
                .isEqualTo(Limits.none());
        assertThat(open).hasToString("gamma 4.0 req/s (max 2 in flight), 9 requests");
    }

    @Test
    void should_reject_bad_objectives() {
        rejects(
                () -> SloSpec.of(Metric.TTFT).percentile(0).atMost(Duration.ofMillis(1)),
                "percentile = 0.0 must be above 0 and at most 100");
        rejects(
                () -> SloSpec.of(Metric.TTFT).percentile(100.5).atMost(Duration.ofMillis(1)),
                "percentile = 100.5 must be above 0 and at most 100");
        rejects(
                () -> SloSpec.of(Metric.GOODPUT).atMost(Duration.ofMillis(1)),
                "metric GOODPUT is not a latency; a Duration bound (PT0.001S) does not apply");
        rejects(
                () -> SloSpec.of(Metric.ERROR_RATE).atMost(5),
                "threshold = 5.0 must be a ratio between 0 and 1 (ERROR_RATE is a ratio)");
        rejects(() -> SloSpec.of(Metric.GOODPUT).atLeast(-1), "threshold = -1.0 must be a finite value of at least 0");
        assertThatThrownBy(() -> SloSpec.of(Metric.TTFT).atMost(Duration.ofMillis(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("choose percentile(p), mean() or max() of TTFT before the bound");
    }

    @Test
    void should_reject_bad_endpoints_and_runs() {
        rejects(
                () -> ServerEndpoint.of("localhost:8000", "m"),
                "baseUrl = 'localhost:8000' must be an absolute http or https URL");
        rejects(() -> ServerEndpoint.of("http://127.0.0.1:8000", " "), "model = ' ' must not be blank");
        ServerEndpoint server = ServerEndpoint.of("http://127.0.0.1:8000/v1/", "m");
        assertThat(server.baseUrl()).hasToString("http://127.0.0.1:8000");
        rejects(
                () -> Goodput.newRun(server).load(Load.poisson(1).requests(1)).build(),
                "a run needs a workload: call workload(...)");
        rejects(
                () -> Goodput.newRun(server)
                        .workload(WorkloadSpec.synthetic().outputTokens(1).build())
                        .load(Load.poisson(1).requests(1))
                        .objectives(SloSpec.of(Metric.TPOT).percentile(99).atMost(Duration.ofMillis(50)))
                        .build(),
                "an objective on TPOT needs at least 2 output tokens per request (a gap between tokens), but the workload asks"
                        + " for outputTokens = 1");
        rejects(
                () -> Goodput.newRun(server)
                        .workload(WorkloadSpec.synthetic().build())
                        .load(Load.poisson(1).requests(1))
                        .confidence(1)
                        .build(),
                "confidence = 1.0 must be between 0 and 1 (exclusive)");
        rejects(() -> RequestSpec.completion("x", 0), "maxTokens = 0 must be at least 1");
        rejects(
                () -> RequestSpec.completion("x", 4).withMinTokens(5),
                "minTokens = 5 must be between 0 and maxTokens (4)");
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
                .objectives(SloSpec.of(Metric.TTFT).percentile(99.9).atMost(Duration.ofMillis(1)))
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
        assertThat(scaled.limits()).isEqualTo(Limits.requests(100).withDuration(Duration.ofSeconds(6)));
        assertThat(scaled.warmup()).isEqualTo(Limits.requests(10));
        assertThat(scaled.arrivals()).isEqualTo(Load.poisson(8));
        assertThat(Load.poisson(8).requests(3).scaled(0.01).limits()).isEqualTo(Limits.requests(1));
        // A warm-up that rounds to nothing is dropped rather than left to swallow the whole run.
        assertThat(Load.poisson(8).requests(10).warmupRequests(2).scaled(0.1).warmup())
                .isEqualTo(Limits.none());
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
