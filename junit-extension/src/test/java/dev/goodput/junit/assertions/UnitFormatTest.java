package dev.goodput.junit.assertions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.internal.Units;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.internal.MetricUnits;
import org.junit.jupiter.api.Test;

/** The copy of core's formatting must print exactly what core's reports print. */
class UnitFormatTest {

    private static final double[] VALUES = {
        0, 0.004, 0.005, 0.0417, 0.5, 1, 2.1, 3.5, 99.995, 1000, 312_400_000, 1.5e12, Double.NaN
    };

    @Test
    void should_format_every_metric_as_core_does() {
        for (Metric metric : Metric.values()) {
            for (double value : VALUES) {
                assertThat(UnitFormat.format(metric, value))
                        .as("%s %s", metric, value)
                        .isEqualTo(MetricUnits.format(metric, value));
            }
        }
    }

    @Test
    void should_format_percentiles_as_core_does() {
        for (double percentile : new double[] {50, 90, 99, 99.9, 99.99, 0.1, 100}) {
            assertThat(UnitFormat.formatPercentile(percentile)).isEqualTo(Units.formatPercentile(percentile));
        }
    }

    @Test
    void should_pin_the_format_of_each_unit() {
        assertThat(UnitFormat.format(Metric.TTFT, 412_300_000)).isEqualTo("412.30 ms");
        assertThat(UnitFormat.format(Metric.GOODPUT, 3.5)).isEqualTo("3.50 req/s");
        assertThat(UnitFormat.format(Metric.OUTPUT_TOKEN_THROUGHPUT, 1250)).isEqualTo("1250.00 tok/s");
        assertThat(UnitFormat.format(Metric.ERROR_RATE, 0.0417)).isEqualTo("4.17 %");
        assertThat(UnitFormat.format(Metric.TTFT, Double.NaN)).isEqualTo("n/a");
        assertThat(UnitFormat.formatPercentile(99.0)).isEqualTo("99");
        assertThat(UnitFormat.formatPercentile(99.9)).isEqualTo("99.9");
    }

    @Test
    void should_add_decimals_only_when_two_different_values_would_print_alike() {
        assertThat(UnitFormat.formatDistinctly(Metric.TTFT, 200e6, 200.004e6))
                .containsExactly("200.000000 ms", "200.004000 ms");
        assertThat(UnitFormat.formatDistinctly(Metric.TTFT, 200e6, 200e6)).containsExactly("200.00 ms", "200.00 ms");
        assertThat(UnitFormat.formatDistinctly(Metric.TTFT, 200e6, 312.4e6)).containsExactly("200.00 ms", "312.40 ms");
    }
}
