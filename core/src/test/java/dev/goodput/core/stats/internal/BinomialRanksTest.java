package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BinomialRanksTest {

    @ParameterizedTest(name = "p = {0}/{1}")
    @CsvSource({"1, 2", "9, 10", "99, 100", "1, 100", "1, 3"})
    void should_agree_with_exact_rational_arithmetic_for_small_counts(int numerator, int denominator) {
        // An independent oracle: with p = a / b, b^n F(k) = Σ_{j <= k} C(n, j) a^j (b - a)^(n - j) is an
        // integer, and the tail 0.025 = 1/40, so every comparison is exact.
        double p = (double) numerator / denominator;
        for (int n = 1; n <= 80; n++) {
            BigInteger scale = BigInteger.valueOf(denominator).pow(n);
            BigInteger[] cumulative = new BigInteger[n + 1];
            BigInteger sum = BigInteger.ZERO;
            for (int j = 0; j <= n; j++) {
                sum = sum.add(choose(n, j)
                        .multiply(BigInteger.valueOf(numerator).pow(j))
                        .multiply(BigInteger.valueOf(denominator - numerator).pow(n - j)));
                cumulative[j] = sum;
            }
            long lower = BinomialRanks.NONE;
            long upper = BinomialRanks.NONE;
            for (int k = 1; k <= n; k++) {
                BigInteger fortyF = cumulative[k - 1].multiply(BigInteger.valueOf(40));
                if (fortyF.compareTo(scale) <= 0) {
                    lower = k; // F(k - 1) <= 1/40
                }
                BigInteger fortyTail = scale.subtract(cumulative[k - 1]).multiply(BigInteger.valueOf(40));
                if (upper == BinomialRanks.NONE && fortyTail.compareTo(scale) <= 0) {
                    upper = k; // P(B >= k) <= 1/40
                }
            }
            BinomialRanks.Pair ranks = BinomialRanks.exact(n, p, 0.025);
            assertThat(ranks.lower()).as("lower, n=%d", n).isEqualTo(lower);
            assertThat(ranks.upper()).as("upper, n=%d", n).isEqualTo(upper);
        }
    }

    @ParameterizedTest(name = "p={0} at {1}")
    @CsvSource({
        "0.5,    0.95",
        "0.9,    0.95",
        "0.99,   0.95",
        "0.999,  0.95",
        "0.9999, 0.95",
        "0.01,   0.95",
        "0.5,    0.99",
        "0.99,   0.99",
        "0.999,  0.999",
        "0.9,    0.9"
    })
    void should_agree_with_the_normal_approximation_at_the_switch_over(double p, double confidence) {
        // The largest n computed exactly for this p: n p (1 - p) <= 250,000.
        long n = (long) Math.floor(BinomialRanks.EXACT_VARIANCE_LIMIT / (p * (1 - p)));
        BinomialRanks.Pair exact = BinomialRanks.exact(n, p, (1 - confidence) / 2);
        BinomialRanks.Pair normal = BinomialRanks.normal(n, p, NormalQuantile.twoSided(confidence));
        assertThat((double) normal.lower()).isCloseTo(exact.lower(), within(1.0));
        assertThat((double) normal.upper()).isCloseTo(exact.upper(), within(1.0));
    }

    @ParameterizedTest(name = "n={0}")
    @CsvSource({
        // Exact: n p (1 - p) = 250,000. F(499,019) <= 0.025 < F(499,020); F(500,979) < 0.975 <= F(500,980).
        "1000000, 499020, 500981",
        // Normal from here on: 500,000.5 + 0.5 ± 1.959964 * 500.00025.
        "1000001, 499021, 500981"
    })
    void should_switch_from_exact_to_normal_above_a_million_samples_of_the_median(long n, long lower, long upper) {
        OrderStatisticInterval ranks = OrderStatisticInterval.of(n, 0.5, 0.95);
        assertThat(ranks.lowerRank()).isEqualTo(lower);
        assertThat(ranks.upperRank()).isEqualTo(upper);
    }

    private static BigInteger choose(int n, int k) {
        BigInteger result = BigInteger.ONE;
        for (int i = 0; i < k; i++) {
            result = result.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return result;
    }
}
