package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OutputLengthTest {

    private final PerformanceModel model = PerformanceModel.preset("tiny-test").withMeanOutputTokens(50);

    @Test
    @DisplayName("Without ignore_eos some requests stop naturally and the others are cut at max_tokens")
    void naturalStopsAndLengthCutsBothHappen() {
        VirtualTimeRun run = new VirtualTimeRun(model);
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sinks.add(run.submit(Generations.natural("r" + i, i * 1_000_000L, 20, 80, i)));
        }
        run.runToCompletion();
        long stopped = sinks.stream().filter(s -> s.finishReason.equals("stop")).count();
        long cut = sinks.stream().filter(s -> s.finishReason.equals("length")).count();
        assertThat(stopped + cut).isEqualTo(100);
        // A geometric length with mean 50 exceeds 80 with probability (1 - 1/50)^80, about 20%.
        assertThat(cut).isBetween(8L, 35L);
        for (RecordingSink sink : sinks) {
            if (sink.finishReason.equals("stop")) {
                assertThat(sink.tokens()).isBetween(1, 79);
            } else {
                assertThat(sink.tokens()).isEqualTo(80);
            }
        }
    }

    @Test
    @DisplayName("The same request seed gives the same length; min_tokens and ignore_eos are honoured")
    void lengthsAreSeededAndClamped() {
        Generation generation = Generations.natural("a", 0, 20, 1000, 12345);
        assertThat(OutputLength.of(generation, model)).isEqualTo(OutputLength.of(generation, model));
        List<Integer> lengths = new ArrayList<>();
        for (long seed = 0; seed < 20; seed++) {
            lengths.add(OutputLength.of(Generations.natural("a", 0, 20, 1000, seed), model)
                    .tokens());
        }
        assertThat(lengths.stream().distinct().count())
                .as("distinct lengths of 20 seeds")
                .isGreaterThan(15);
        Generation withMinimum = new Generation("m", 0, new long[20], 1000, 900, false, 3);
        assertThat(OutputLength.of(withMinimum, model)).isEqualTo(new OutputLength(900, "stop"));
        assertThat(OutputLength.of(Generations.ignoringEos("i", 0, 20, 77), model))
                .isEqualTo(new OutputLength(77, "length"));
        // The context limit (2,048) cuts the output of a long prompt.
        assertThat(OutputLength.of(Generations.ignoringEos("c", 0, 2000, 500), model))
                .isEqualTo(new OutputLength(48, "length"));
    }
}
