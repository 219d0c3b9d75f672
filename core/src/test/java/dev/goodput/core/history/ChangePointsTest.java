package dev.goodput.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChangePointsTest {

    private static final ChangePoints DEFAULTS = ChangePoints.defaults();

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void should_find_an_18_percent_step_at_its_first_value(long seed) {
        double[] values = concat(normal(seed, 60, 100, 3), normal(seed + 100, 60, 118, 3));

        List<ChangePoint> found = DEFAULTS.find("ttft_p99_ms", values);

        assertThat(found).hasSize(1);
        ChangePoint point = found.get(0);
        assertThat(point.index()).isEqualTo(60);
        assertThat(point.before()).isBetween(98.0, 102.0);
        assertThat(point.after()).isBetween(116.0, 120.0);
        assertThat(point.change()).isBetween(0.14, 0.22);
        assertThat(point.pValue()).isLessThan(1e-10);
        assertThat(point.isRegression()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void should_find_no_change_point_in_stationary_noise(long seed) {
        assertThat(DEFAULTS.find("ttft_p99_ms", normal(seed, 200, 100, 3))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23, 24, 25})
    void should_not_flag_a_2_percent_step_below_the_5_percent_minimum(long seed) {
        double[] values = concat(normal(seed, 60, 100, 0.5), normal(seed + 100, 60, 102, 0.5));

        assertThat(DEFAULTS.find("ttft_p99_ms", values)).isEmpty();
        // The step is real: without the minimum change it is found, at its place.
        assertThat(DEFAULTS.minChange(0).find("ttft_p99_ms", values))
                .extracting(ChangePoint::index)
                .containsExactly(60);
    }

    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33, 34, 35})
    void should_not_flag_a_single_outlier(long seed) {
        double[] values = normal(seed, 120, 100, 3);
        values[70] = 300;

        assertThat(DEFAULTS.find("ttft_p99_ms", values)).isEmpty();
    }

    @Test
    void should_find_two_steps_by_binary_segmentation() {
        double[] values = concat(normal(41, 50, 100, 2), normal(42, 50, 130, 2), normal(43, 50, 100, 2));

        assertThat(DEFAULTS.find("goodput_rps", values))
                .extracting(ChangePoint::index, ChangePoint::isRegression)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(50, false), org.assertj.core.groups.Tuple.tuple(100, true));
    }

    @Test
    void should_need_the_minimum_points_on_each_side() {
        double[] step = concat(normal(51, 40, 100, 1), normal(52, 4, 150, 1));

        assertThat(DEFAULTS.find("e2el_p99_ms", step)).isEmpty();
        assertThat(DEFAULTS.minPointsPerSide(4).find("e2el_p99_ms", step))
                .extracting(ChangePoint::index)
                .containsExactly(40);
    }

    @Test
    void should_judge_a_shift_between_constant_windows_as_certain() {
        double[] values = concat(new double[10], new double[] {0.1, 0.1, 0.1, 0.1, 0.1, 0.1});

        List<ChangePoint> found = DEFAULTS.find("error_rate", values);

        assertThat(found).extracting(ChangePoint::index).containsExactly(10);
        assertThat(found.get(0).pValue()).isZero();
        assertThat(found.get(0).describe()).isEqualTo("error_rate shifted from 0 at entry 11 (0.000 -> 0.1000), p = 0");
        assertThat(DEFAULTS.find("error_rate", new double[20])).isEmpty();
    }

    @Test
    void should_place_a_change_point_of_entries_at_its_entry_skipping_missing_figures() {
        double[] values = concat(normal(61, 20, 100, 2), normal(62, 20, 80, 2));
        List<HistoryEntry> entries = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (i == 3) {
                // A run without the figure (NaN) sits in the history but not in the series.
                entries.add(
                        new HistoryEntry("A/a", Instant.EPOCH, "nofig", "", "dev", Map.of("goodput_rps", Double.NaN)));
            }
            entries.add(new HistoryEntry(
                    "A/a", Instant.EPOCH, String.format("%040d", i), "", "dev", Map.of("goodput_rps", values[i])));
        }

        List<ChangePoint> found = DEFAULTS.find(entries, "goodput_rps");

        assertThat(found).hasSize(1);
        assertThat(found.get(0).index()).isEqualTo(21);
        assertThat(found.get(0).commit()).isEqualTo(String.format("%040d", 20));
        assertThat(found.get(0).isRegression()).isTrue();
        assertThat(found.get(0).describe()).startsWith("goodput_rps shifted -19 % at commit 0000000 (");
        assertThat(DEFAULTS.findAll(entries)).containsOnlyKeys("goodput_rps");
    }

    @Test
    void should_give_the_same_answer_every_time() {
        double[] values = concat(normal(71, 60, 100, 5), normal(72, 60, 110, 5));

        assertThat(DEFAULTS.find("m", values)).isEqualTo(DEFAULTS.find("m", values.clone()));
    }

    @Test
    void should_refuse_settings_that_cannot_work_naming_the_value() {
        assertThatThrownBy(() -> DEFAULTS.maxPValue(0)).hasMessage("maxPValue = 0.0 must be above 0 and at most 1");
        assertThatThrownBy(() -> DEFAULTS.minChange(-0.1))
                .hasMessage("minChange = -0.1 must be a number of at least 0");
        assertThatThrownBy(() -> DEFAULTS.window(3)).hasMessage("window = 3 must be at least minPointsPerSide (5)");
        assertThatThrownBy(() -> DEFAULTS.minPointsPerSide(1))
                .hasMessage("minPointsPerSide = 1 must be at least 2 (a t-test needs a variance)");
        assertThatThrownBy(() -> DEFAULTS.find("m", new double[] {1, Double.NaN}))
                .hasMessage("m value 1 is not finite: NaN");
    }

    static double[] normal(long seed, int count, double mean, double standardDeviation) {
        Random random = new Random(seed);
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
            values[i] = mean + standardDeviation * random.nextGaussian();
        }
        return values;
    }

    static double[] concat(double[]... parts) {
        int length = 0;
        for (double[] part : parts) {
            length += part.length;
        }
        double[] all = new double[length];
        int at = 0;
        for (double[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
