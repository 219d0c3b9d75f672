package dev.goodput.core.internal.result;

import static dev.goodput.core.testing.SampleResults.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Metric;
import dev.goodput.core.Objective;
import dev.goodput.core.Phase;
import dev.goodput.core.RequestRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How much a goodput and an SLO attainment are worth when the latencies that decide them are correlated. */
class RunValueIntervalsTest {

    private static final double CONFIDENCE = 0.95;

    /**
     * 600 requests arriving every 50 ms, each good: their TTFTs wander slowly (an AR(1) series of lag-1
     * autocorrelation 0.98 about 100 ms, as a queue near saturation does) but never reach the 1 s bound.
     */
    private static List<RequestRecord> quietStretchOfASlowQueue() {
        Random random = new Random(7);
        List<RequestRecord> records = new ArrayList<>();
        double wander = 0;
        for (int i = 0; i < 600; i++) {
            wander = 0.98 * wander + random.nextGaussian() * 8;
            long ttft = 100 + Math.round(Math.max(-90, Math.min(400, wander)));
            long sent = 50L * i;
            records.add(success(i, Phase.MEASURED, sent, sent, sent + ttft, sent + ttft + 70, sent + ttft + 70, 8));
        }
        return records;
    }

    private static Map<Metric, RunValueIntervals.Estimate> estimates(
            List<RequestRecord> records, List<Objective> criteria) {
        return RunValueIntervals.of(records, records, record -> true, criteria, 0, 30.5, CONFIDENCE);
    }

    @Test
    void a_goodput_is_worth_no_more_requests_than_the_latencies_that_decide_it() {
        List<RequestRecord> records = quietStretchOfASlowQueue();
        List<Objective> criteria =
                List.of(Objective.of(Metric.TTFT).percentile(90).atMost(Duration.ofSeconds(1)));

        double ttftEffective = RunValueIntervals.criteriaEffectiveCount(records, criteria);
        Map<Metric, RunValueIntervals.Estimate> capped = estimates(records, criteria);
        Map<Metric, RunValueIntervals.Estimate> uncapped = estimates(records, List.of());

        // Every request good: the 0/1 series alone says nothing about correlation, the TTFTs do.
        assertThat(ttftEffective).isLessThan(100);
        assertThat(uncapped.get(Metric.GOODPUT).effectiveCount()).isGreaterThan(ttftEffective);
        assertThat(capped.get(Metric.GOODPUT).effectiveCount()).isEqualTo(ttftEffective);
        assertThat(capped.get(Metric.SLO_ATTAINMENT).effectiveCount()).isEqualTo(ttftEffective);
        // The smaller count only tells the not-yet rule how long the run is against its correlation; the
        // intervals stay the rate's and the share's own.
        assertThat(capped.get(Metric.GOODPUT).interval())
                .isEqualTo(uncapped.get(Metric.GOODPUT).interval());
        assertThat(capped.get(Metric.SLO_ATTAINMENT).interval())
                .isEqualTo(uncapped.get(Metric.SLO_ATTAINMENT).interval());
        // Rates whose requests are not judged good or bad keep their own counts.
        assertThat(capped.get(Metric.REQUEST_THROUGHPUT)).isEqualTo(uncapped.get(Metric.REQUEST_THROUGHPUT));
        assertThat(capped.get(Metric.ERROR_RATE)).isEqualTo(uncapped.get(Metric.ERROR_RATE));
    }

    @Test
    void without_request_level_objectives_nothing_is_capped() {
        assertThat(RunValueIntervals.criteriaEffectiveCount(quietStretchOfASlowQueue(), List.of()))
                .isInfinite();
    }
}
