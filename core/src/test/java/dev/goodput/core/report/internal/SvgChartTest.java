package dev.goodput.core.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.testing.HeadlessChromium;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chart stays readable: legends within the chart, a count that stayed zero on a 0..1 axis, bounded points. */
class SvgChartTest {

    private static final double[] SECONDS = {0, 1, 2, 3};

    @Test
    void should_draw_a_series_flat_at_zero_on_an_axis_from_zero_to_one() {
        String chart = new SvgChart("server-preemptions", "Server: Preemptions per second", "time (s)", "1/s")
                .lineWithDots("Preemptions per second", SECONDS, new double[] {0, 0, 0, 0})
                .render();

        assertThat(chart).contains("data-y-axis=\"0 1\"").doesNotContain("-1");
    }

    @Test
    void should_break_a_legend_entry_too_wide_for_its_column_into_lines_and_keep_a_short_one_on_one() {
        String chart = new SvgChart("server-preemptions", "Server: Preemptions per second", "time (s)", "1/s")
                .lineWithDots("Preemptions per second", SECONDS, new double[] {0, 1, 0, 2})
                .lineWithDots("waiting", SECONDS, new double[] {1, 1, 1, 1})
                .render();

        assertThat(chart)
                .contains("<text class=\"legend\" x=\"514.0\" y=\"62.0\" text-anchor=\"start\"><tspan x=\"514.0\""
                        + " dy=\"0\">Preemptions per</tspan><tspan x=\"514.0\" dy=\"13\">second</tspan><title>"
                        + "Preemptions per second</title></text>")
                // The next entry goes below both lines.
                .contains("<text class=\"legend\" x=\"514.0\" y=\"93.0\" text-anchor=\"start\">waiting</text>");
    }

    @Test
    void should_show_every_legend_within_its_chart_in_a_browser(@TempDir Path directory) throws Exception {
        HeadlessChromium chromium = HeadlessChromium.requireInstalled();
        StringBuilder body = new StringBuilder();
        String[] names = {
            "Preemptions per second",
            "KV cache usage (percent of blocks)",
            "vllm:num_requests_waiting_total",
            "WWWWWWWWWWWWWWWWWWWWWWWWWW",
            "completed per second",
        };
        for (String name : names) {
            body.append(new SvgChart("c", "a chart", "time (s)", "value")
                    .line(name, SECONDS, new double[] {1, 2, 3, 4})
                    .render());
        }
        body.append(scatter(5_000));
        // Measures every legend's right edge against its chart's width once the page is laid out.
        body.append("<script>var cut=[];document.querySelectorAll('svg.chart').forEach(function(svg){"
                + "svg.querySelectorAll('text.legend').forEach(function(t){var b=t.getBBox();"
                + "if(b.x+b.width>svg.viewBox.baseVal.width){cut.push(t.textContent);}});});"
                + "document.body.setAttribute('data-cut-legends',cut.join('|'));"
                + "document.body.setAttribute('data-legends',"
                + "String(document.querySelectorAll('text.legend').length));</script>");
        Path page = directory.resolve("charts.html");
        Files.writeString(page, Html.page("charts", "PASSED", body.toString()), StandardCharsets.UTF_8);

        String dom = chromium.dumpDom(page, directory).stdout();

        assertThat(dom).contains("data-cut-legends=\"\"").contains("data-legends=\"" + (names.length + 3) + "\"");
    }

    @Test
    void should_draw_a_large_scatter_as_bins_whose_greatest_points_stay_dots_with_their_values() {
        String chart = scatter(50_000);

        assertThat(chart)
                .contains("<g class=\"binned\" data-points=\"50000\" data-bins=\"142\">")
                .contains("<title>TTFT per request: 31.3, 4321</title>");
        assertThat(count(chart, "<circle class=\"point\"")).isEqualTo(142);
        assertThat(chart.length()).isLessThan(60_000);
    }

    @Test
    void should_thin_a_long_line_to_four_points_a_pixel_column_and_keep_its_peak() {
        int n = 100_000;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
            y[i] = i == 61_234 ? 500 : 10 + i % 7;
        }
        String chart =
                new SvgChart("line", "a line", "x", "y").line("value", x, y).render();

        Matcher path = Pattern.compile("<path class=\"series\" d=\"([^\"]*)\"").matcher(chart);
        assertThat(path.find()).isTrue();
        long points = path.group(1).chars().filter(c -> c == 'L').count() + 1;
        assertThat(points).isBetween(400L, 4L * SvgChart.PLOT_WIDTH);
        // The peak at 500 is the top of the axis (500), drawn at the plot's top edge.
        assertThat(chart).contains("data-y-axis=\"0 500\"");
        assertThat(path.group(1)).contains(String.format(java.util.Locale.ROOT, " %.1f", (double) SvgChart.TOP));
    }

    /** A scatter of TTFTs 1 ms apart, 20 to 79 ms, with one of 4,321 ms at 31.3 s. */
    private static String scatter(int n) {
        double[] seconds = new double[n];
        double[] ttft = new double[n];
        for (int i = 0; i < n; i++) {
            seconds[i] = i / 1000.0;
            ttft[i] = i == 31_337 ? 4_321 : 20 + (i * 7_919L) % 60;
        }
        return new SvgChart("over-time-ttft", "TTFT over time", "intended start (s)", "TTFT (ms)")
                .dots("TTFT per request", seconds, ttft)
                .render();
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
