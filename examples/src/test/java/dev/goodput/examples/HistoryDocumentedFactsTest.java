package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.history.ChangePointReport;
import dev.goodput.core.history.ChangePoints;
import dev.goodput.core.history.HistoryEntry;
import dev.goodput.core.history.RunHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Holds docs/history.md to the code: the defaults it quotes and the figures it lists. */
class HistoryDocumentedFactsTest {

    private static final Path HISTORY_DOC =
            Path.of("..").toAbsolutePath().normalize().resolve("docs").resolve("history.md");

    @Test
    void should_quote_the_change_point_defaults_of_the_code() throws IOException {
        // Line breaks are where the prose wraps, not part of a fact.
        String doc = Files.readString(HISTORY_DOC).replaceAll("\\s+", " ");
        ChangePoints defaults = ChangePoints.defaults();

        assertThat(doc)
                .contains("up to `window` values (default " + defaults.window() + ")")
                .contains("at least `minPointsPerSide` values (default " + defaults.minPointsPerSide() + ")")
                .contains("`minChange` (default " + defaults.minChange() + ", so "
                        + Math.round(defaults.minChange() * 100) + " %)")
                .contains("`p <= maxPValue` (default " + defaults.maxPValue() + ")")
                .contains("the newest " + RunHistory.DEFAULT_MAX_PER_TEST + " entries of each test")
                .contains("last `--last` entries (default " + ChangePointReport.DEFAULT_LAST + ")")
                .contains("`--window N` (" + defaults.window() + "), `--max-p P` (" + defaults.maxPValue()
                        + "), `--min-change C` (" + defaults.minChange() + "), `--min-points N` ("
                        + defaults.minPointsPerSide() + ")");
    }

    @Test
    void should_show_every_key_figure_in_the_example_line() throws IOException {
        String doc = Files.readString(HISTORY_DOC);

        for (String figure : HistoryEntry.KEY_FIGURES) {
            assertThat(doc).as("the example line of docs/history.md").contains("\"" + figure + "\":");
        }
    }
}
