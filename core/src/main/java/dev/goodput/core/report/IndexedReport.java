package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.time.Instant;
import org.apiguardian.api.API;

/**
 * One test's page as the report index lists it ({@link ReportIndex#entries(Path)}): what the page's head says
 * about its test, read back from the page, so every listing built from these rows agrees with the index page.
 *
 * @param page the page's file ({@value Reports#HTML_FILE}, {@value Reports#SWEEP_HTML_FILE},
 *     {@value GateReport#HTML_FILE} or {@value VariantComparison#HTML_FILE})
 * @param link the page's path relative to the report directory, with {@code /} as separator
 * @param test the test's name as the page's title gives it, for example {@code ChatGateExample.chat()}
 * @param verdict {@code PASSED}, {@code FAILED}, or {@code ?} when the page carries none
 * @param kind {@code run}, {@code sweep}, {@code gate} (a gate with several trials or a baseline comparison) or
 *     {@code variants} (a test run against several server variants)
 * @param requests the scheduled requests: a run's, or all of a sweep's or variants' runs together
 * @param goodput the run's goodput, formatted with its unit; a sweep's max goodput rate
 * @param ttftP99 the run's p99 time to first token, formatted with its unit; empty for a sweep or without one
 * @param errorRate the run's error rate, formatted with its unit; empty for a sweep
 * @param topFailure the run's most frequent failure reason with its count; empty when none failed
 * @param baselineChange the comparison with the baseline in short, for example {@code REGRESSED (TTFT p99 +18.1 %)};
 *     empty without one
 * @param why why the page's verdict is not PASSED (the objectives not met, a regression, the failed variants, the
 *     max goodput rate below its bound); empty when it passed or the page says none
 * @param written when the page was last written
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record IndexedReport(
        Path page,
        String link,
        String test,
        String verdict,
        String kind,
        String requests,
        String goodput,
        String ttftP99,
        String errorRate,
        String topFailure,
        String baselineChange,
        String why,
        Instant written) {}
