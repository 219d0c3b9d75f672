package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.load.Limits;
import dev.goodput.core.load.Load;
import dev.goodput.core.load.RequestPolicy;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.ApiKind;
import dev.goodput.core.workload.LengthDistribution;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A refused setting is an {@link InvalidSettingException} that carries the setting and the value as data, so that
 * a front end words it without reading the message.
 */
class RefusalDataTest {

    private static InvalidSettingException refusal(Executable action) {
        Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class, action);
        assertThat(thrown).isInstanceOf(IllegalArgumentException.class).isInstanceOf(InvalidSettingException.class);
        return (InvalidSettingException) thrown;
    }

    private static void refusesValue(Executable action, String setting, Object value, String requirement) {
        InvalidSettingException e = refusal(action);
        assertThat(e.setting()).isEqualTo(setting);
        assertThat(e.settings()).containsExactly(setting);
        assertThat(e.isSingleValue()).isTrue();
        assertThat(e.value()).isEqualTo(value);
        assertThat(e.requirement()).isEqualTo(requirement);
        assertThat(e.getMessage()).startsWith(setting + " = ").endsWith(" " + requirement);
    }

    @Test
    void should_carry_setting_and_value_of_arrivals_limits_and_request_policy() {
        refusesValue(() -> Load.constantRate(-1), "rate", -1.0, "must be a finite number of requests/s above 0");
        refusesValue(() -> Limits.requests(0), "requests", 0L, "must be at least 1");
        refusesValue(
                () -> Limits.duration(Duration.ofSeconds(-5)), "duration", Duration.ofSeconds(-5), "must be positive");
        refusesValue(() -> RequestPolicy.DEFAULT.withRetries(11), "retries", 11, "must be between 0 and 10");
        refusesValue(
                () -> Load.poisson(2).requests(5).maxRetryWait(Duration.ZERO),
                "maxRetryWait",
                Duration.ZERO,
                "must be positive");
    }

    @Test
    void should_carry_every_setting_of_a_load_conflict_and_word_it_in_other_names() {
        InvalidSettingException e =
                refusal(() -> Load.poisson(1).duration(Duration.ofSeconds(2)).warmup(Duration.ofSeconds(2)));

        assertThat(e.settings()).containsExactly("warmup", "cooldown", "duration");
        assertThat(e.isSingleValue()).isFalse();
        assertThat(e.value()).isNull();
        assertThat(e.getMessage()).isEqualTo("warmup (2 s) + cooldown (0 s) leave no measured time of duration (2 s)");
        assertThat(e.message(name -> name + "Seconds"))
                .isEqualTo(
                        "warmupSeconds (2 s) + cooldownSeconds (0 s) leave no measured time of durationSeconds (2 s)");
    }

    @Test
    void should_carry_setting_and_value_of_workloads_and_requests() {
        refusesValue(() -> WorkloadSpec.synthetic().inputTokens(0), "inputTokens", 0, "must be at least 1");
        refusesValue(() -> WorkloadSpec.synthetic().temperature(-1), "temperature", -1.0, "must be at least 0");
        refusesValue(() -> LengthDistribution.uniform(100, 1.5), "rangeRatio", 1.5, "must be at least 0 and below 1");
        refusesValue(
                () -> new RequestSpec(
                        ApiKind.COMPLETIONS, "hi", null, 0, null, null, null, null, Map.of(), 0, Map.of()),
                "maxTokens",
                0,
                "must be at least 1");

        InvalidSettingException both = refusal(() ->
                new RequestSpec(ApiKind.COMPLETIONS, null, null, 8, null, null, null, null, Map.of(), 0, Map.of()));
        assertThat(both.settings()).containsExactly("prompt", "messages");
        assertThat(both.message(name -> name.toUpperCase(java.util.Locale.ROOT)))
                .isEqualTo("a completions request needs a PROMPT and no MESSAGES");
    }

    @Test
    void should_carry_setting_and_value_of_objectives() {
        refusesValue(
                () -> SloSpec.of(Metric.TTFT).percentile(99).atMost(-5),
                "threshold",
                -5.0,
                "must be a finite value of at least 0");
        refusesValue(
                () -> new SloSpec(Metric.TTFT, SloSpec.Statistic.MEAN, 99, SloSpec.Comparison.AT_MOST, 1, null),
                "percentile",
                99.0,
                "is only for the PERCENTILE statistic");

        InvalidSettingException statistic = refusal(() ->
                new SloSpec(Metric.TTFT, SloSpec.Statistic.VALUE, Double.NaN, SloSpec.Comparison.AT_MOST, 1, null));
        assertThat(statistic.settings()).containsExactly("statistic", "metric");
    }

    @Test
    void should_carry_setting_and_value_of_run_settings() {
        ServerEndpoint server = ServerEndpoint.of("http://127.0.0.1:8000", "m");
        java.util.function.Supplier<Goodput.RunBuilder> run = () -> Goodput.newRun(server)
                .workload(WorkloadSpec.synthetic().build())
                .load(Load.poisson(2).requests(10));

        refusesValue(() -> run.get().confidence(1.5).build(), "confidence", 1.5, "must be between 0 and 1 (exclusive)");
        refusesValue(() -> run.get().percentiles(101).build(), "percentiles", 101.0, "must be above 0 and at most 100");
        refusesValue(
                () -> ServerEndpoint.of("ftp://x", "m"),
                "baseUrl",
                "'ftp://x'",
                "must be an absolute http or https URL");
        refusesValue(
                () -> server.withConnectTimeout(Duration.ZERO), "connectTimeout", Duration.ZERO, "must be positive");

        InvalidSettingException missing = refusal(() -> Goodput.newRun(server).build());
        assertThat(missing.settings()).containsExactly("workload");
        assertThat(missing.getMessage()).isEqualTo("a run needs a workload: call workload(...)");
    }

    @Test
    void should_word_a_too_small_load_in_the_names_given() {
        Load load = Load.poisson(5).duration(Duration.ofSeconds(20)).warmup(Duration.ofSeconds(2));
        List<SloSpec> objectives =
                List.of(SloSpec.of(Metric.TTFT).percentile(99).atMost(1e9));

        InvalidSettingException e = refusal(() -> RunSpec.checkSampleSize(load, objectives, 0.95, null));

        assertThat(e.getMessage()).endsWith("(rate 5 req/s x duration 20 s - rate x warmup 2 s)");
        assertThat(e.message(name -> name.equals("duration") || name.equals("warmup") ? name + "Seconds" : name))
                .endsWith("(rate 5 req/s x durationSeconds 20 s - rate x warmupSeconds 2 s)");
    }

    @Test
    void should_keep_a_fixed_message_whatever_the_names() {
        InvalidSettingException e = InvalidSettingException.conflict("a and b do not fit", "a", "b");

        assertThat(e.message(name -> "x")).isEqualTo("a and b do not fit");
        assertThat(e.settings()).containsExactly("a", "b");
    }
}
