package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.internal.ServerMetricNames;
import dev.goodput.core.slo.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** docs/server-metrics.md against the code: every mapped name, every server-side metric, every GPU preset. */
class ServerMetricsDocumentedTest {

    private static final Path DOC = Path.of("..", "docs", "server-metrics.md");

    @Test
    void should_list_every_server_metric_name_goodput_maps() throws IOException {
        String doc = Files.readString(DOC);
        SoftAssertions softly = new SoftAssertions();
        for (ServerMetricNames.SeriesName name : ServerMetricNames.all()) {
            softly.assertThat(doc)
                    .as("docs/server-metrics.md names %s", name.name())
                    .contains(name.name().replaceAll("_total$", ""));
        }
        softly.assertAll();
    }

    @Test
    void should_name_every_server_side_metric_and_gpu_preset() throws IOException {
        String doc = Files.readString(DOC);
        Arrays.stream(Metric.values())
                .filter(Metric::isServerSide)
                .forEach(metric -> assertThat(doc).contains("`" + metric.name() + "`"));
        Deployment.GPU_BANDWIDTH_GBPS.forEach((gpu, bandwidth) ->
                assertThat(doc).contains("| " + gpu + " | " + String.format(Locale.ROOT, "%,.0f", bandwidth) + " |"));
    }
}
