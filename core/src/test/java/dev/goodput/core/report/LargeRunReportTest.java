package dev.goodput.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A run of 100,000 requests: its page once drew a dot per request, 20 MB. Its charts are drawn within a bounded size
 * now, and the requests that matter, the slowest, are still dots of their own with their values.
 */
class LargeRunReportTest {

    private static final int REQUESTS = 100_000;
    private static final int SLOWEST_INDEX = 31_337;
    private static final long SLOWEST_TTFT_MS = 4_321;
    private static final int SECOND_SLOWEST_INDEX = 87_654;
    private static final long SECOND_SLOWEST_TTFT_MS = 3_210;

    @Test
    void should_keep_the_page_of_100000_requests_under_2_mb_and_draw_its_slowest_requests() {
        RunResult result = SampleResults.compute(
                records(), List.of(SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500))));

        String page = HtmlReport.format(result, "100,000 requests");

        assertThat(page.getBytes(StandardCharsets.UTF_8).length).isLessThan(2_000_000);
        String overTime = chart(page, "over-time-ttft");
        // Intended starts 1 ms apart from 0: request 31,337 at 31.337 s (labelled 31.3).
        assertThat(overTime)
                .contains("<title>TTFT per request: 31.3, " + SLOWEST_TTFT_MS + "</title>")
                .contains("<title>TTFT per request: 87.7, " + SECOND_SLOWEST_TTFT_MS + "</title>")
                .contains("data-points=\"" + REQUESTS + "\"");
        // The distributions reach the slowest request: their value axes end at or beyond it.
        assertThat(axisMax(chart(page, "cdf-ttft"), "data-x-axis")).isGreaterThanOrEqualTo(SLOWEST_TTFT_MS);
        assertThat(axisMax(chart(page, "cdf-e2el"), "data-x-axis")).isGreaterThanOrEqualTo(SLOWEST_TTFT_MS + 100);
        assertThat(axisMax(overTime, "data-y-axis")).isGreaterThanOrEqualTo(SLOWEST_TTFT_MS);
    }

    /** One request a millisecond, TTFT 20 to 79 ms, two of them thousands of ms; each streams for 100 ms more. */
    private static List<RequestRecord> records() {
        List<RequestRecord> records = new ArrayList<>(REQUESTS);
        for (int i = 0; i < REQUESTS; i++) {
            long ttft = i == SLOWEST_INDEX
                    ? SLOWEST_TTFT_MS
                    : i == SECOND_SLOWEST_INDEX ? SECOND_SLOWEST_TTFT_MS : 20 + (i * 7_919L) % 60;
            long first = i + ttft;
            records.add(SampleResults.success(i, Phase.MEASURED, i, i, first, first + 100, first + 100, 11));
        }
        return records;
    }

    private static String chart(String page, String id) {
        int start = page.indexOf("<svg class=\"chart\" id=\"" + id + "\"");
        assertThat(start).as("chart %s on the page", id).isNotNegative();
        return page.substring(start, page.indexOf("</svg>", start));
    }

    private static double axisMax(String chart, String attribute) {
        Matcher axis = Pattern.compile(attribute + "=\"(\\S+) (\\S+)\"").matcher(chart);
        assertThat(axis.find())
                .as("%s in %s", attribute, chart.substring(0, 120))
                .isTrue();
        return Double.parseDouble(axis.group(2));
    }
}
