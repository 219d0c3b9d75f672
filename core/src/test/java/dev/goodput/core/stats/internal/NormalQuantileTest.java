package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NormalQuantileTest {

    @ParameterizedTest(name = "Φ⁻¹({0}) = {1}")
    @CsvSource({
        // Reference values: scipy.stats.norm.ppf, printed to 17 significant digits.
        "0.5,    0.0",
        "0.3,    -0.5244005127080409", // central range, |p - 0.5| <= 0.425
        "0.975,  1.959963984540054", // intermediate tail
        "0.995,  2.5758293035489004",
        "0.95,   1.6448536269514722",
        "1e-20,  -9.262340089798409" // far tail, sqrt(-ln p) > 5
    })
    void should_match_reference_quantiles(double probability, double expected) {
        assertThat(NormalQuantile.inverseCdf(probability))
                .isCloseTo(expected, within(2e-15 * Math.max(1, Math.abs(expected))));
        if (probability > 1e-10) {
            // 1 - 1e-20 rounds to 1; elsewhere the function is odd around one half.
            assertThat(NormalQuantile.inverseCdf(1 - probability)).isCloseTo(-expected, within(1e-14));
        }
    }

    @ParameterizedTest(name = "z for {0} is {1}")
    @CsvSource({"0.9, 1.6448536269514722", "0.95, 1.959963984540054", "0.99, 2.5758293035489004"})
    void should_give_the_two_sided_z(double confidence, double expected) {
        assertThat(NormalQuantile.twoSided(confidence)).isCloseTo(expected, within(2e-15));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0", "1", "NaN", "-0.5"})
    void should_reject_probabilities_outside_0_to_1(double probability) {
        assertThatThrownBy(() -> NormalQuantile.inverseCdf(probability)).isInstanceOf(IllegalArgumentException.class);
    }
}
