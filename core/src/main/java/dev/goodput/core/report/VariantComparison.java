package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.report.internal.Html;
import dev.goodput.core.report.internal.VariantCharts;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.internal.MetricUnits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The same gate run against several server variants, side by side: the tuning decision record that says which
 * configuration met the objectives and with how much goodput. Written as a Markdown table ({@value
 * #MARKDOWN_FILE}), a CSV ({@value #CSV_FILE}) and an HTML page with charts ({@value #HTML_FILE}); every format
 * lists the variants in the order given and names the best one: the highest goodput (for sweeps, the highest max
 * goodput rate) among the variants that met the gate.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class VariantComparison {

    /** The Markdown table's file name. */
    public static final String MARKDOWN_FILE = "variants.md";

    /** The HTML page's file name. */
    public static final String HTML_FILE = "variants.html";

    /** The CSV's file name. */
    public static final String CSV_FILE = "variants.csv";

    /** The CSV's header row; latencies in milliseconds, rates in requests/s, {@code max_goodput_rps} for sweeps. */
    public static final String CSV_HEADER =
            "variant,verdict,objectives_met,objectives,slo_attainment,max_goodput_rps,offered_rps,"
                    + "goodput_rps,request_throughput_rps,ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms,error_rate";

    private final String title;
    private final List<VariantOutcome> variants;

    private VariantComparison(String title, List<VariantOutcome> variants) {
        this.title = title;
        this.variants = variants;
    }

    /**
     * Returns the comparison of the given variants, in that order.
     *
     * @throws IllegalArgumentException when there is no variant, or two share a name or a report directory
     */
    public static VariantComparison of(String title, List<VariantOutcome> variants) {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("a comparison of " + title + " needs at least one variant");
        }
        Map<String, String> directories = new HashMap<>();
        for (VariantOutcome variant : variants) {
            String previous = directories.put(directoryName(variant.name()), variant.name());
            if (previous != null) {
                throw new IllegalArgumentException("variants '" + previous + "' and '" + variant.name()
                        + "' of " + title + " share the report directory " + directoryName(variant.name())
                        + "; give them names that differ in letters or digits");
            }
        }
        return new VariantComparison(title, List.copyOf(variants));
    }

    /**
     * Returns the directory name of a variant's reports: its name with every run of characters other than letters,
     * digits, {@code .}, {@code _} and {@code -} replaced by {@code -}, never starting with a dot.
     */
    public static String directoryName(String variant) {
        String name = variant.strip().replaceAll("[^A-Za-z0-9._-]+", "-");
        return name.isEmpty() || name.startsWith(".") ? "v" + name : name;
    }

    /** Returns the variants in the order given. */
    public List<VariantOutcome> variants() {
        return variants;
    }

    /** Returns whether the variants are sweeps. */
    public boolean isSweep() {
        return variants.stream().anyMatch(variant -> variant.sweep().isPresent());
    }

    /** Returns the best variant: the highest {@link VariantOutcome#score() score} among those that passed, if any. */
    public Optional<VariantOutcome> best() {
        // max() keeps the last of equal scores; the first declared should win a tie, so compare reversed over min().
        return variants.stream()
                .filter(VariantOutcome::passed)
                .min(Comparator.comparingDouble(VariantOutcome::score).reversed());
    }

    /** Returns the one-line headline: how many variants passed and which is best, and by what figure. */
    public String headline() {
        long passed = variants.stream().filter(VariantOutcome::passed).count();
        String best = best().map(variant -> String.format(
                        Locale.ROOT,
                        "best: %s (%s %.2f req/s)",
                        variant.name(),
                        isSweep() ? "max goodput rate" : "goodput",
                        variant.score()))
                .orElse("no variant met every objective");
        return String.format(Locale.ROOT, "%s: %d of %d variants passed; %s", title, passed, variants.size(), best);
    }

    /** Returns the column names of the table. */
    public List<String> header() {
        // A sweep judges its runs by SLO attainment, not by objectives met: a short run at a rate leaves a p90
        // objective inconclusive although most of its requests met it.
        List<String> header = new ArrayList<>(List.of("variant", "verdict"));
        header.addAll(
                isSweep() ? List.of("SLO attainment", "max goodput rate", "figures at") : List.of("objectives met"));
        header.addAll(
                List.of("goodput", "request throughput", "p50 TTFT", "p99 TTFT", "p50 TPOT", "p99 TPOT", "error rate"));
        return header;
    }

    /** Returns the table's rows, one per variant in the order given, cells formatted with their units. */
    public List<List<String>> rows() {
        List<List<String>> rows = new ArrayList<>();
        for (VariantOutcome variant : variants) {
            RunResult result = variant.result();
            List<String> row = new ArrayList<>(List.of(variant.name(), verdict(variant)));
            if (variant.sweep().isEmpty()) {
                row.add(variant.objectivesMet() + "/" + result.verdicts().size());
            }
            variant.sweep().ifPresent(sweep -> {
                row.add(MetricUnits.format(Metric.SLO_ATTAINMENT, result.value(Metric.SLO_ATTAINMENT)));
                row.add(MetricUnits.format(Metric.GOODPUT, sweep.maxGoodputRate()));
                row.add(MetricUnits.format(
                        Metric.REQUEST_THROUGHPUT, result.load().offeredRate()));
            });
            row.addAll(List.of(
                    MetricUnits.format(Metric.GOODPUT, result.goodput()),
                    MetricUnits.format(Metric.REQUEST_THROUGHPUT, result.value(Metric.REQUEST_THROUGHPUT)),
                    MetricUnits.format(Metric.TTFT, percentile(result, Metric.TTFT, 50)),
                    MetricUnits.format(Metric.TTFT, percentile(result, Metric.TTFT, 99)),
                    MetricUnits.format(Metric.TPOT, percentile(result, Metric.TPOT, 50)),
                    MetricUnits.format(Metric.TPOT, percentile(result, Metric.TPOT, 99)),
                    MetricUnits.format(Metric.ERROR_RATE, result.value(Metric.ERROR_RATE))));
            rows.add(row);
        }
        return rows;
    }

    /** Returns the Markdown: a heading with the {@link #headline()}, then the table. */
    public String markdown() {
        StringBuilder markdown = new StringBuilder("### ").append(headline()).append("\n\n");
        List<String> header = header();
        markdown.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int column = 0; column < header.size(); column++) {
            markdown.append(column < 2 ? "---|" : "---:|");
        }
        markdown.append('\n');
        for (List<String> row : rows()) {
            markdown.append("| ")
                    .append(String.join(
                            " | ",
                            row.stream().map(cell -> cell.replace("|", "\\|")).toList()))
                    .append(" |\n");
        }
        return markdown.toString();
    }

    /** Returns the CSV: {@link #CSV_HEADER}, then one row per variant; an absent figure is an empty cell. */
    public String csv() {
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (VariantOutcome variant : variants) {
            RunResult result = variant.result();
            List<String> cells = List.of(
                    quoted(variant.name()),
                    verdict(variant),
                    Long.toString(variant.objectivesMet()),
                    Integer.toString(result.verdicts().size()),
                    number(result.value(Metric.SLO_ATTAINMENT)),
                    variant.sweep().map(sweep -> number(sweep.maxGoodputRate())).orElse(""),
                    variant.sweep().isPresent() ? number(result.load().offeredRate()) : "",
                    number(result.goodput()),
                    number(result.value(Metric.REQUEST_THROUGHPUT)),
                    number(percentile(result, Metric.TTFT, 50) / 1e6),
                    number(percentile(result, Metric.TTFT, 99) / 1e6),
                    number(percentile(result, Metric.TPOT, 50) / 1e6),
                    number(percentile(result, Metric.TPOT, 99) / 1e6),
                    number(result.value(Metric.ERROR_RATE)));
            csv.append(String.join(",", cells)).append('\n');
        }
        return csv.toString();
    }

    /**
     * Returns the HTML page: the headline, the table (each variant's name linking to its own report, {@code
     * <directoryName>/report.html} or {@code sweep.html}) and the charts.
     *
     * @param verdict the test's verdict the page shows and carries for the index, for example PASSED or FAILED
     */
    public String html(String verdict) {
        List<List<Object>> rows = new ArrayList<>();
        List<List<String>> cells = rows();
        for (int i = 0; i < variants.size(); i++) {
            VariantOutcome variant = variants.get(i);
            List<Object> row = new ArrayList<>(cells.get(i));
            String link = directoryName(variant.name()) + "/"
                    + (variant.sweep().isPresent() ? Reports.SWEEP_HTML_FILE : Reports.HTML_FILE);
            row.set(0, Html.markup("<a href=\"" + Html.escape(link) + "\">" + Html.escape(variant.name()) + "</a>"));
            row.set(1, Html.markup(Html.verdict(cells.get(i).get(1))));
            rows.add(row);
        }
        StringBuilder body = new StringBuilder("<h1>")
                .append(Html.escape(title))
                .append(" ")
                .append(Html.verdict(verdict))
                .append("</h1><p id=\"best\"><b>")
                .append(Html.escape(headline()))
                .append("</b></p><h2>Variants</h2>")
                .append(Html.table(header(), rows))
                .append("<h2>Charts</h2><div class=\"charts\">");
        VariantCharts.all(variants).forEach(body::append);
        body.append("</div>");
        java.util.Map<String, String> meta = new java.util.LinkedHashMap<>();
        meta.put(
                ReportIndex.REQUESTS_META,
                Long.toString(variants.stream()
                        .mapToLong(variant -> variant.sweep()
                                .map(sweep -> sweep.points().stream()
                                        .mapToLong(point ->
                                                point.result().accounting().scheduled())
                                        .sum())
                                .orElse(variant.result().accounting().scheduled()))
                        .sum()));
        List<String> failed = variants.stream()
                .filter(variant -> !variant.passed())
                .map(VariantOutcome::name)
                .toList();
        meta.put(
                ReportIndex.WHY_META,
                verdict.equals("PASSED") || failed.isEmpty()
                        ? ""
                        : "variants that failed: " + String.join(", ", failed));
        return Html.page(title + " - variants", verdict, meta, body.toString());
    }

    /**
     * Writes {@value #MARKDOWN_FILE}, {@value #CSV_FILE} and {@value #HTML_FILE} into a directory, creating it, and
     * returns the directory.
     *
     * @param verdict the test's verdict, for the page
     */
    public Path writeAll(Path directory, String verdict) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(MARKDOWN_FILE), markdown(), StandardCharsets.UTF_8);
            Files.writeString(directory.resolve(CSV_FILE), csv(), StandardCharsets.UTF_8);
            Files.writeString(directory.resolve(HTML_FILE), html(verdict), StandardCharsets.UTF_8);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the variant comparison to " + directory, e);
        }
    }

    private static String verdict(VariantOutcome variant) {
        return variant.passed() ? "PASSED" : "FAILED";
    }

    private static double percentile(RunResult result, Metric metric, double percentile) {
        return result.summary(metric).percentiles().getOrDefault(percentile, Double.NaN);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String quoted(String text) {
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
