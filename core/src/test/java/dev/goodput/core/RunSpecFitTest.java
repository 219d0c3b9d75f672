package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.load.Load;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.TimedWorkload;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A spec's workload, load and objectives are checked to fit ({@link RunSpec#checkFits}) when it is built and when a
 * copy replaces one of them, not again by a copy that keeps all three.
 */
class RunSpecFitTest {

    /** A trace of {@code size} requests that counts how often its size is asked, which only the fit check does. */
    private static final class CountingTrace implements TimedWorkload {
        final AtomicInteger sizeAsked = new AtomicInteger();
        private final long size;

        CountingTrace(long size) {
            this.size = size;
        }

        @Override
        public long size() {
            sizeAsked.incrementAndGet();
            return size;
        }

        @Override
        public long arrivalOffsetNanos(long index) {
            return index * 1_000_000L;
        }

        @Override
        public RequestSpec request(long index) {
            return RequestSpec.completion("x", 4);
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("type", "counting trace");
        }
    }

    private static RunSpec spec(CountingTrace trace, long requests) {
        return Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(trace)
                .load(Load.traceReplay().requests(requests))
                .build();
    }

    @Test
    void should_check_the_fit_once_when_built_and_not_again_in_copies_that_keep_it() {
        CountingTrace trace = new CountingTrace(10);
        RunSpec spec = spec(trace, 10);
        int checked = trace.sizeAsked.get();
        assertThat(checked).isPositive();

        RunSpec copy = spec.withProgress(progress -> {})
                .withWatcher(null)
                .withPreflight(false)
                .withFailOnTooFewSamples(false)
                .withServerMetrics(ScrapeSettings.OFF)
                .withJudgeSteadyStateOnly(true)
                .withPreflightLoadingWait(Duration.ZERO)
                .withStopWhenServerGone(true)
                .withDeployment(Deployment.UNSTATED);

        assertThat(trace.sizeAsked.get()).isEqualTo(checked);
        assertThat(copy.workload()).isSameAs(trace);
        assertThat(copy.load()).isEqualTo(spec.load());
        assertThat(copy.preflight()).isFalse();
    }

    @Test
    void should_check_a_copy_with_another_load_and_refuse_one_that_does_not_fit() {
        CountingTrace trace = new CountingTrace(10);
        RunSpec spec = spec(trace, 10);
        int checked = trace.sizeAsked.get();

        spec.withLoad(Load.traceReplay().requests(5));
        assertThat(trace.sizeAsked.get()).isGreaterThan(checked);

        assertThatThrownBy(() -> spec.withLoad(Load.traceReplay().requests(11)))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("must be between 1 and the trace's 10 requests for a trace replay");
        assertThatThrownBy(() -> spec.withLoad(Load.poisson(1).requests(5)))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("a trace workload replays its own arrival times");
    }

    @Test
    void should_refuse_a_spec_built_by_its_constructor_whose_settings_do_not_fit() {
        RunSpec fits = spec(new CountingTrace(10), 10);
        // A copy that kept the fit leaves nothing behind: the next spec built directly is checked in full.
        fits.withPreflight(false);

        assertThatThrownBy(() -> new RunSpec(
                        fits.server(),
                        fits.workload(),
                        Load.traceReplay().requests(11),
                        fits.objectives(),
                        fits.percentiles(),
                        fits.confidence(),
                        fits.outputTokenCounter(),
                        fits.sendLagLimit(),
                        fits.progressListener(),
                        fits.watcher(),
                        fits.preflight(),
                        fits.failOnTooFewSamples(),
                        fits.serverMetrics(),
                        fits.deployment(),
                        fits.transport(),
                        fits.judgeSteadyStateOnly(),
                        fits.preflightLoadingWait(),
                        fits.stopWhenServerGone()))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("trace's 10 requests");
    }
}
