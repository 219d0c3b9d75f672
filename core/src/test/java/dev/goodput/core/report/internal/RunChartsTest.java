package dev.goodput.core.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A distribution's axis is scaled to its data; an objective's bound far from them is a marker at the edge. */
class RunChartsTest {

    // The sample's measured TTFTs: 50, 100, 150 and 200 ms.
    private static String ttftChart(SloSpec... objectives) {
        RunResult result = SampleResults.compute(List.of(objectives));
        return RunCharts.distributions(result).get(0);
    }

    @Test
    void should_scale_a_cdf_to_its_data_and_mark_a_bound_far_beyond_them_at_the_right_edge() {
        String chart = ttftChart(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofSeconds(5)));

        assertThat(chart)
                .startsWith("<svg class=\"chart\" id=\"cdf-ttft\" data-series=\"1\" data-x-axis=\"50 200\""
                        + " data-y-axis=\"0 1\"")
                // The marker: a triangle at the right edge (x = 490), pointing right, and the bound's label.
                .contains("<polygon class=\"bound off-scale\" points=\"481.0,279.0 490.0,284.0 481.0,289.0\""
                        + " fill=\"#555\"><title>p90 TTFT ≤ 5000.00 ms lies beyond the axis</title></polygon>"
                        + "<text class=\"bound-label off-scale\" x=\"478.0\" y=\"288.0\" text-anchor=\"end\">p90 TTFT"
                        + " ≤ 5000.00 ms →</text>")
                // No dashed vertical line: the bound is not on the axis. The p90 line across is.
                .doesNotContain("<line class=\"bound\" x1=\"490.0\"")
                .contains("<text class=\"bound-label\" x=\"494.0\" y=\"60.4\" text-anchor=\"start\">p90</text>")
                .contains("<text class=\"tick\" x=\"490.0\" y=\"310.0\" text-anchor=\"middle\">200</text>");
    }

    @Test
    void should_widen_a_cdf_to_a_bound_within_one_span_of_its_data_and_draw_it_as_a_line() {
        // 300 ms is 100 ms beyond the data, whose span is 150 ms: the axis reaches it.
        String chart = ttftChart(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(300)));

        assertThat(chart)
                .contains("data-x-axis=\"50 300\"")
                .contains("<line class=\"bound\" x1=\"490.0\" x2=\"490.0\" y1=\"30\" y2=\"294\" stroke=\"#555\""
                        + " stroke-dasharray=\"6 4\"/>")
                .contains("<text class=\"bound-label\" x=\"486.0\" y=\"288.0\" text-anchor=\"end\">p90 TTFT ≤ 300.00"
                        + " ms</text>")
                .doesNotContain("off-scale");
    }

    @Test
    void should_mark_a_bound_far_below_the_data_at_the_left_edge() {
        SvgChart chart = new SvgChart("cdf", "E2EL distribution (CDF)", "E2EL (ms)", "share of requests")
                .line("E2EL", new double[] {2000, 2100, 2200}, new double[] {1 / 3.0, 2 / 3.0, 1})
                .vertical("p90 E2EL ≤ 500.00 ms", 500);

        assertThat(chart.render())
                .contains("data-x-axis=\"2000 2200\"")
                .contains("<polygon class=\"bound off-scale\" points=\"73.0,35.0 64.0,40.0 73.0,45.0\"")
                .contains("text-anchor=\"start\">← p90 E2EL ≤ 500.00 ms</text>");
    }

    @Test
    void should_scale_an_empty_cdf_to_its_bounds() {
        SvgChart chart = new SvgChart("cdf", "TTFT distribution (CDF)", "TTFT (ms)", "share of requests")
                .line("TTFT", new double[0], new double[0])
                .vertical("p90 TTFT ≤ 150.00 ms", 150)
                .vertical("p99 TTFT ≤ 500.00 ms", 500);

        assertThat(chart.render()).contains("data-x-axis=\"100 500\"").doesNotContain("off-scale");
    }
}
