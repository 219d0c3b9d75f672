package dev.goodput.core.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.report.Reports;
import dev.goodput.core.report.SweepCsvReport;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.HeadlessChromium;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.ModelPredictions;
import dev.goodput.mock.PerformanceModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Sweeps the simulated {@code tiny-test} server, whose model says where it saturates: {@link
 * ModelPredictions#maxRequestsPerSecond} for the workload's shape. Above that rate the queue grows without bound,
 * so the knee, the max goodput rate and the over-saturation detector must all find that rate.
 */
@Isolated("its runs' client health (50 ms limit) shows in the pages it checks, and its knee in where the server"
        + " saturates: a test beside it takes the cores")
class SweepAgainstSimulatedServerTest {

    private static final int PROMPT = 64;
    private static final int OUTPUT = 64;
    private static final PerformanceModel MODEL = PerformanceModel.preset("tiny-test");
    private static final double SATURATION = ModelPredictions.of(MODEL).maxRequestsPerSecond(PROMPT, OUTPUT);
    private static final double STEP = Math.round(SATURATION / 3 * 4) / 4.0;
    private static final double RESOLUTION = 0.5;
    private static MockServer server;
    private static SweepResult result;

    /** One sweep for every test: a grid of 2/3, 3/3 and 4/3 of the saturation rate, then the search. */
    @BeforeAll
    static void sweepTheSimulatedServer() {
        server = MockServer.start(MockServerConfig.defaults().withPerformanceModel(MODEL));
        result = sweep().rates(2 * STEP, 3 * STEP, 4 * STEP)
                .searchMaxGoodput(RESOLUTION, 3)
                .run();
        print(result);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private static Sweep.Builder sweep() {
        return Sweep.newSweep(Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                .workload(WorkloadSpec.synthetic()
                        .inputTokens(PROMPT)
                        .outputTokens(OUTPUT)
                        .build())
                .objectives(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(250)))
                .load(Load.constantRate(1).duration(Duration.ofSeconds(8)).drain(Duration.ofSeconds(5)))
                // tiny-test's 1 GB of weights at 100 GB/s, for the bandwidth check at the lowest rate
                .deployment(new dev.goodput.core.servermetrics.Deployment("simulated", 1, Double.NaN, 100, 5e8, 2))
                .build());
    }

    /**
     * A finite run at a rate a little above saturation still attains the target: its queue has not yet grown
     * past the TTFT bound for more than 10 % of its requests. That lets the found rate exceed the model's by up
     * to about {@code saturation * bound / (0.9 * runSeconds)}, here 0.32 req/s, on top of the resolution.
     */
    private static final double FINITE_RUN_ALLOWANCE = SATURATION * 0.25 / (0.9 * 8);

    @Test
    void should_find_the_knee_and_the_max_goodput_rate_where_the_model_saturates() {
        double resolution = RESOLUTION;
        double step = STEP;
        MaxGoodput max = result.maxGoodput();
        assertThat(max.converged()).as(max.describe()).isTrue();
        assertThat(max.failingRate() - max.rate()).isLessThanOrEqualTo(resolution);
        assertThat(max.rate())
                .as("max goodput rate against the model's saturation rate %.2f", SATURATION)
                .isBetween(SATURATION - resolution, SATURATION + resolution + FINITE_RUN_ALLOWANCE);
        assertThat(max.runs()).hasSize(result.points().size());
        assertThat(result.kneePoint())
                .as("knee against the model's saturation rate %.2f", SATURATION)
                .hasValueSatisfying(knee -> assertThat(knee.offeredRate()).isBetween(SATURATION - step, SATURATION));
        assertThat(result.curve())
                .filteredOn(point -> point.offeredRate() < SATURATION)
                .noneMatch(SweepPoint::stoppedEarly);
        assertThat(result.curve())
                .filteredOn(point -> point.offeredRate() > SATURATION * 1.25)
                .isNotEmpty()
                .allSatisfy(
                        point -> assertThat(point.stopReason()).startsWith("over-saturated: requests in flight grew"));
    }

    @Test
    void should_show_the_servers_queue_filling_past_the_knee_in_its_own_metrics() {
        // Below saturation every request is admitted at once; above it the server's own queue grows (issue 16).
        double calm = result.curve().stream()
                .filter(point -> point.offeredRate() <= 2 * STEP)
                .mapToDouble(point -> point.result().serverMetrics().figures().peakWaiting())
                .max()
                .orElseThrow();
        assertThat(result.curve())
                .filteredOn(point -> point.offeredRate() > SATURATION * 1.25)
                .isNotEmpty()
                .allSatisfy(point -> assertThat(
                                point.result().serverMetrics().figures().peakWaiting())
                        .as("peak waiting at %.2f req/s", point.offeredRate())
                        .isGreaterThan(Math.max(4, 4 * calm)));
        assertThat(dev.goodput.core.report.SweepHtmlReport.format(result, "sweep", "PASSED", run -> ""))
                .contains("bandwidth check at the lowest rate ("
                        + String.format(java.util.Locale.ROOT, "%.2f", 2 * STEP));
        assertThat(SweepCsvReport.format(result).lines().skip(1).filter(row -> !row.contains("\"")))
                .isNotEmpty()
                .allSatisfy(row -> assertThat(row.split(",", -1)).hasSize(SweepCsvReport.HEADER.split(",").length));
    }

    @Test
    void should_write_a_sweep_report_that_renders_in_a_headless_browser() throws Exception {
        Path directory = Path.of("target", "goodput-reports", "SweepAgainstSimulatedServerTest");
        Reports.writeSweep(result, directory.resolve("sweep"), "tiny-test sweep", "PASSED");
        Path index = ReportIndex.write(directory);

        assertThat(Files.readString(directory.resolve("sweep").resolve(Reports.SWEEP_CSV_FILE))
                        .lines())
                .hasSize(result.points().size() + 1)
                .first()
                .isEqualTo(SweepCsvReport.HEADER);
        assertThat(Files.readString(index))
                .contains("href=\"sweep/sweep.html\"")
                .contains("PASSED");

        HeadlessChromium chromium = HeadlessChromium.requireInstalled();
        Path screenshots = Path.of("target", "screenshots");
        Path sweepPage = directory.resolve("sweep").resolve(Reports.SWEEP_HTML_FILE);
        Path runPage = directory.resolve("sweep").resolve("run-03").resolve(Reports.HTML_FILE);
        for (Path page : List.of(sweepPage, runPage, index)) {
            HeadlessChromium.Output output = chromium.dumpDom(page, screenshots);
            assertThat(output.stderr()).as("console of %s", page).doesNotContain("Uncaught", "CONSOLE(");
            assertThat(output.stdout()).as("DOM of %s", page).contains("data-rendered=\"true\"");
        }
        String sweepDom = chromium.dumpDom(sweepPage, screenshots).stdout();
        assertThat(sweepDom)
                .contains("id=\"sweep-latency-ttft\"", "id=\"sweep-attainment\"", "id=\"sweep-throughput\"")
                .contains("id=\"sweep-server-pressure\"")
                .contains("class=\"mark\"", "class=\"bound\"", "max goodput");
        assertThat(sweepDom.split("class=\"series\"", -1)).hasSizeGreaterThan(10);
        String runDom = chromium.dumpDom(runPage, screenshots).stdout();
        assertThat(runDom)
                .contains("id=\"cdf-ttft\"", "id=\"cdf-tpot\"", "id=\"cdf-itl\"", "id=\"cdf-e2el\"")
                .contains("id=\"over-time-throughput\"", "id=\"over-time-in-flight\"", "id=\"over-time-ttft\"");

        Path sweepPng = screenshots.resolve("sweep.png");
        Path runPng = screenshots.resolve("run.png");
        chromium.screenshot(sweepPage, sweepPng, 1400, 1500);
        chromium.screenshot(runPage, runPng, 1400, 2500);
        assertThat(Files.size(sweepPng)).isGreaterThan(20_000);
        assertThat(Files.size(runPng)).isGreaterThan(20_000);
        System.out.println("screenshots: " + sweepPng.toAbsolutePath() + ", " + runPng.toAbsolutePath());
    }

    /** Marks each element the selector finds with its computed font weight and colour, for the DOM dump. */
    private static final String STYLE_PROBE = "<script>document.querySelectorAll('%s').forEach(function(e){"
            + "var c=getComputedStyle(e);e.setAttribute('data-weight',c.fontWeight);"
            + "e.setAttribute('data-color',c.color);e.setAttribute('data-background',c.backgroundColor);});</script>";

    private static Path withStyleProbe(Path page, String selector) throws java.io.IOException {
        String html = Files.readString(page);
        int end = html.lastIndexOf("</body>");
        Path probed = page.resolveSibling("probed-" + page.getFileName());
        Files.writeString(
                probed,
                html.substring(0, end) + String.format(Locale.ROOT, STYLE_PROBE, selector) + html.substring(end));
        return probed;
    }

    @Test
    void should_show_a_failed_gates_worst_news_first_and_boldest_and_index_every_page_with_why_in_a_browser(
            @org.junit.jupiter.api.io.TempDir Path directory) throws Exception {
        var trials =
                result.curve().subList(0, 2).stream().map(SweepPoint::result).toList();
        var comparison = new dev.goodput.core.compare.Comparison(
                dev.goodput.core.compare.ChangeVerdict.REGRESSED,
                List.of(),
                List.of(
                        new dev.goodput.core.compare.MetricChange(
                                "TPOT p50",
                                true,
                                10.0,
                                11.5,
                                0.15,
                                0.11,
                                0.19,
                                dev.goodput.core.compare.ChangeVerdict.REGRESSED,
                                "bootstrap"),
                        new dev.goodput.core.compare.MetricChange(
                                "TTFT p99",
                                true,
                                100,
                                104,
                                0.04,
                                -0.08,
                                0.16,
                                dev.goodput.core.compare.ChangeVerdict.INCONCLUSIVE,
                                "bootstrap")),
                List.of(),
                0.10,
                0.95,
                2,
                2);
        List<dev.goodput.core.report.GateReport.Attempt> attempts = new java.util.ArrayList<>();
        for (int i = 0; i < trials.size(); i++) {
            Reports.writeAll(trials.get(i), directory.resolve("Gate/chat/trial-" + (i + 1)), "trial " + (i + 1));
            attempts.add(new dev.goodput.core.report.GateReport.Attempt(
                    i + 1, 1, "trial-" + (i + 1) + "/report.html", trials.get(i), true, null));
        }
        Path gatePage = new dev.goodput.core.report.GateReport(
                        "Gate.chat()",
                        "FAILED",
                        dev.goodput.core.result.TrialSummary.of(trials),
                        attempts,
                        comparison,
                        "compared with baseline.json")
                .write(directory.resolve("Gate/chat"));
        Path variants = directory.resolve("Variants/chat");
        Reports.writeAll(trials.get(0), variants.resolve("fast"), "Variants.chat() - fast");
        Reports.writeAll(result.curve().get(result.curve().size() - 1).result(), variants.resolve("slow"), "slow");
        dev.goodput.core.report.VariantComparison.of(
                        "Variants.chat()",
                        List.of(
                                dev.goodput.core.report.VariantOutcome.ofRun("fast", trials.get(0), true),
                                dev.goodput.core.report.VariantOutcome.ofRun(
                                        "slow",
                                        result.curve()
                                                .get(result.curve().size() - 1)
                                                .result(),
                                        false)))
                .writeAll(variants, "PASSED");
        Reports.writeSweep(result, directory.resolve("Sweep/rates"), "Sweep.rates()", "PASSED");
        Path index = ReportIndex.write(directory);

        HeadlessChromium chromium = HeadlessChromium.requireInstalled();
        Path screenshots = Path.of("target", "screenshots");
        String gateDom = chromium.dumpDom(
                        withStyleProbe(gatePage, "h1 .FAILED, .why .FAILED, td .REGRESSED, td .INCONCLUSIVE, td .MET"),
                        screenshots)
                .stdout();
        assertThat(gateDom).contains("data-rendered=\"true\"");
        assertThat(gateDom.substring(gateDom.indexOf("<body")))
                .as("the gate page's text")
                .doesNotContain("REGRESSED REGRESSED", "PASSED");
        // The page opens with the gate's verdict on red and the reason, the regression in red and at least as bold
        // as the inconclusive change beside it.
        assertThat(gateDom)
                .containsPattern(
                        "<h1>Gate.chat\\(\\) <span class=\"FAILED\" data-weight=\"700\" data-color=\"rgb\\(255, 255, 255\\)\" "
                                + "data-background=\"rgb\\(192, 21, 27\\)\">FAILED</span></h1><p class=\"why\">")
                .contains("<td><span class=\"REGRESSED\" data-weight=\"700\" data-color=\"rgb(192, 21, 27)\"")
                .contains("<td><span class=\"INCONCLUSIVE\" data-weight=\"600\"");
        Files.delete(gatePage.resolveSibling("probed-" + gatePage.getFileName()));

        String indexDom = chromium.dumpDom(index, screenshots).stdout();
        long sweepRequests = result.points().stream()
                .mapToLong(point -> point.result().accounting().scheduled())
                .sum();
        assertThat(indexDom)
                .contains("data-rendered=\"true\"")
                .contains("<a href=\"Gate/chat/gate.html\">Gate.chat()</a>")
                // The regression comes first; the trials' p90 TTFT may follow as INCONCLUSIVE when a loaded machine
                // correlates the sweep's short runs more (one CI run on 2026-11-29 at load average 15).
                .contains("<div class=\"reason\">REGRESSED vs baseline: TPOT p50 +15.0 %")
                .contains("<a href=\"Variants/chat/variants.html\">")
                .doesNotContain("slow/report.html", "trial-1/report.html")
                .contains(String.format(
                        Locale.ROOT,
                        "<td>sweep</td><td>%d</td><td>max %.2f req/s</td>",
                        sweepRequests,
                        result.maxGoodputRate()));
    }

    private static void print(SweepResult result) {
        for (SweepPoint point : result.points()) {
            System.out.printf(
                    Locale.ROOT,
                    "%s %.2f: throughput %.2f attainment %.3f ttft p50 %.0f ms %s%n",
                    point.role(),
                    point.offeredRate(),
                    point.throughput(),
                    point.attainment(),
                    point.result().summary(Metric.TTFT).percentile(50) / 1e6,
                    point.stoppedEarly() ? point.stopReason() : "");
        }
        System.out.printf(
                Locale.ROOT,
                "model saturation %.2f req/s; %s; knee %s; notes %s%n",
                SATURATION,
                result.maxGoodput().describe(),
                result.kneePoint().map(SweepPoint::offeredRate),
                result.notes());
    }
}
