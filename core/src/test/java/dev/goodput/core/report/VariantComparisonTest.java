package dev.goodput.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VariantComparisonTest {

    /**
     * A per-request bound (what makes a request good) and one met or not on four samples: a max, compared directly
     * (a rate's interval on four samples decides nothing).
     */
    private static final List<SloSpec> OBJECTIVES = List.of(
            SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(300)),
            SloSpec.of(Metric.TTFT).max().atMost(Duration.ofMillis(300)));

    /** The sample run: every first token within 200 ms, so all four measured successes count as goodput. */
    private static final RunResult QUICK = SampleResults.compute(OBJECTIVES);

    /** Four successes whose first tokens take 400 ms: none is good. */
    private static final RunResult SLOW = SampleResults.compute(
            List.of(
                    success(1, 0, 400, 600),
                    success(2, 100, 500, 700),
                    success(3, 200, 600, 800),
                    success(4, 300, 700, 1000)),
            OBJECTIVES);

    /** The sample run's cells from "objectives met" on: TTFT from send 100, 140, 200 and 50 ms; one failure. */
    private static final String QUICK_FIGURES =
            "1/2 | 4.00 req/s | 4.00 req/s | 125.00 ms | 198.50 ms | 50.00 ms | 99.00 ms | 20.00 %";

    private static RequestRecord success(long index, long intended, long first, long end) {
        return SampleResults.success(index, Phase.MEASURED, intended, intended, first, end, end, 5);
    }

    @Test
    void should_name_the_variant_with_the_most_goodput_among_those_that_passed_keeping_the_declared_order() {
        VariantComparison comparison = VariantComparison.of(
                "ChatGate.chat",
                List.of(
                        // As much goodput as the best and declared first, so it would win a tie; but it failed
                        // the gate (say its client was not trustworthy), so it is never the best.
                        VariantOutcome.ofRun("quick but failed", QUICK, false),
                        VariantOutcome.ofRun("slow", SLOW, false),
                        VariantOutcome.ofRun("quick", QUICK, true)));

        assertThat(QUICK.goodput()).isEqualTo(4.0);
        assertThat(SLOW.goodput()).isEqualTo(0.0);
        assertThat(comparison.best()).map(VariantOutcome::name).contains("quick");
        assertThat(comparison.markdown())
                .isEqualTo("### ChatGate.chat: 1 of 3 variants passed; best: quick (goodput 4.00 req/s)\n\n"
                        + "| variant | verdict | objectives met | goodput | request throughput | p50 TTFT | p99 TTFT"
                        + " | p50 TPOT | p99 TPOT | error rate |\n"
                        + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                        + "| quick but failed | FAILED | " + QUICK_FIGURES + " |\n"
                        + "| slow | FAILED | 0/2 | 0.00 req/s | 4.00 req/s | 400.00 ms | 400.00 ms | 50.00 ms"
                        + " | 74.25 ms | 0.00 % |\n"
                        + "| quick | PASSED | " + QUICK_FIGURES + " |\n");
    }

    @Test
    void should_rank_by_goodput_prefer_the_first_declared_of_equals_and_say_when_none_passed() {
        VariantComparison tie = VariantComparison.of(
                "t", List.of(VariantOutcome.ofRun("first", QUICK, true), VariantOutcome.ofRun("second", QUICK, true)));
        VariantComparison none = VariantComparison.of("t", List.of(VariantOutcome.ofRun("slow", SLOW, false)));

        VariantComparison ranked = VariantComparison.of(
                "t", List.of(VariantOutcome.ofRun("slow", SLOW, true), VariantOutcome.ofRun("quick", QUICK, true)));

        assertThat(tie.best()).map(VariantOutcome::name).contains("first");
        assertThat(ranked.best()).map(VariantOutcome::name).contains("quick");
        assertThat(none.best()).isEmpty();
        assertThat(none.headline()).isEqualTo("t: 0 of 1 variants passed; no variant met every objective");
    }

    @Test
    void should_write_csv_markdown_and_a_page_whose_rows_link_to_each_variants_report(@TempDir Path directory)
            throws Exception {
        VariantComparison comparison = VariantComparison.of(
                "Gate <1>",
                List.of(VariantOutcome.ofRun("max seqs, 8", SLOW, false), VariantOutcome.ofRun("q", QUICK, true)));

        comparison.writeAll(directory, "FAILED");

        List<String> csv = Files.readAllLines(directory.resolve(VariantComparison.CSV_FILE));
        assertThat(csv)
                .containsExactly(
                        VariantComparison.CSV_HEADER,
                        "\"max seqs, 8\",FAILED,0,2,0.000,,,0.000,4.000,400.000,400.000,50.000,74.250,0.000",
                        "q,PASSED,1,2,0.800,,,4.000,4.000,125.000,198.500,50.000,99.000,0.200");
        assertThat(Files.readString(directory.resolve(VariantComparison.MARKDOWN_FILE)))
                .isEqualTo(comparison.markdown());
        String html = Files.readString(directory.resolve(VariantComparison.HTML_FILE));
        assertThat(html)
                .contains("<title>Gate &lt;1&gt; - variants</title>")
                .contains("<meta name=\"goodput-verdict\" content=\"FAILED\">")
                .contains("<a href=\"max-seqs-8/report.html\">max seqs, 8</a>")
                .contains("<a href=\"q/report.html\">q</a>")
                .contains("id=\"variants-ttft\"")
                .contains("id=\"variants-tpot\"")
                .contains("Gate &lt;1&gt;: 1 of 2 variants passed; best: q (goodput 4.00 req/s)");
    }

    @Test
    void should_refuse_no_variants_and_names_that_share_a_report_directory() {
        assertThatThrownBy(() -> VariantComparison.of("t", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a comparison of t needs at least one variant");
        assertThatThrownBy(() -> VariantComparison.of(
                        "t",
                        List.of(VariantOutcome.ofRun("a b", QUICK, true), VariantOutcome.ofRun("a-b", SLOW, true))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("variants 'a b' and 'a-b' of t share the report directory a-b; give them names that differ"
                        + " in letters or digits");
    }

    @Test
    void should_make_directory_names_that_stay_inside_the_report_directory() {
        assertThat(VariantComparison.directoryName("max_num_seqs=64, prefix on"))
                .isEqualTo("max_num_seqs-64-prefix-on");
        assertThat(VariantComparison.directoryName("../etc")).isEqualTo("v..-etc");
        assertThat(VariantComparison.directoryName("/")).isEqualTo("-");
    }
}
