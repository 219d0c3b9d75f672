package dev.goodput.core.result.internal;

import static dev.goodput.core.testing.SampleResults.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
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

    /** One request in fifty not good, scattered: a 0/1 series whose own batch means see no correlation. */
    private static boolean scatteredGood(RequestRecord record) {
        return record.index() % 50 != 7;
    }

    private static Map<Metric, RunValueIntervals.Estimate> estimates(
            List<RequestRecord> records, java.util.function.Predicate<RequestRecord> isGood, List<SloSpec> criteria) {
        return RunValueIntervals.of(records, records, isGood, criteria, 0, 30.5, CONFIDENCE);
    }

    private static final List<SloSpec> CRITERIA =
            List.of(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofSeconds(1)));

    @Test
    void a_goodput_is_worth_no_more_requests_than_the_latencies_that_decide_it() {
        List<RequestRecord> records = quietStretchOfASlowQueue();

        double ttftEffective = RunValueIntervals.criteriaEffectiveCount(records, CRITERIA);
        Map<Metric, RunValueIntervals.Estimate> capped =
                estimates(records, RunValueIntervalsTest::scatteredGood, CRITERIA);
        Map<Metric, RunValueIntervals.Estimate> uncapped =
                estimates(records, RunValueIntervalsTest::scatteredGood, List.of());

        // A few bad requests, scattered: the 0/1 series alone says little about correlation, the TTFTs do.
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
    void a_run_whose_every_request_was_good_keeps_its_goodputs_own_count() {
        List<RequestRecord> records = quietStretchOfASlowQueue();

        Map<Metric, RunValueIntervals.Estimate> allGood = estimates(records, record -> true, CRITERIA);

        // Good requests are then the successful ones: the goodput is the request rate, and counts as it does.
        assertThat(allGood.get(Metric.GOODPUT).effectiveCount())
                .isEqualTo(allGood.get(Metric.REQUEST_THROUGHPUT).effectiveCount())
                .isGreaterThan(RunValueIntervals.criteriaEffectiveCount(records, CRITERIA));
    }

    @Test
    void without_request_level_objectives_nothing_is_capped() {
        assertThat(RunValueIntervals.criteriaEffectiveCount(quietStretchOfASlowQueue(), List.of()))
                .isInfinite();
    }
}
