package dev.goodput.core.stats.internal;

/**
 * The quantile function of the standard normal distribution, by Wichura's algorithm AS 241 (PPND16,
 * Applied Statistics 37(3), 1988), accurate to about one part in 10<sup>16</sup>.
 *
 * <p>The coefficients are the published ones, as also used by Python's {@code statistics.NormalDist}.
 */
public final class NormalQuantile {

    // Coefficients from the constant term up, in three ranges of the probability.
    private static final double[] CENTRAL_NUMERATOR = {
        3.3871328727963666080e+0,
        1.3314166789178437745e+2,
        1.9715909503065514427e+3,
        1.3731693765509461125e+4,
        4.5921953931549871457e+4,
        6.7265770927008700853e+4,
        3.3430575583588128105e+4,
        2.5090809287301226727e+3
    };
    private static final double[] CENTRAL_DENOMINATOR = {
        1.0,
        4.2313330701600911252e+1,
        6.8718700749205790830e+2,
        5.3941960214247511077e+3,
        2.1213794301586595867e+4,
        3.9307895800092710610e+4,
        2.8729085735721942674e+4,
        5.2264952788528545610e+3
    };
    private static final double[] INTERMEDIATE_NUMERATOR = {
        1.42343711074968357734e+0,
        4.63033784615654529590e+0,
        5.76949722146069140550e+0,
        3.64784832476320460504e+0,
        1.27045825245236838258e+0,
        2.41780725177450611770e-1,
        2.27238449892691845833e-2,
        7.74545014278341407640e-4
    };
    private static final double[] INTERMEDIATE_DENOMINATOR = {
        1.0,
        2.05319162663775882187e+0,
        1.67638483018380384940e+0,
        6.89767334985100004550e-1,
        1.48103976427480074590e-1,
        1.51986665636164571966e-2,
        5.47593808499534494600e-4,
        1.05075007164441684324e-9
    };
    private static final double[] TAIL_NUMERATOR = {
        6.65790464350110377720e+0,
        5.46378491116411436990e+0,
        1.78482653991729133580e+0,
        2.96560571828504891230e-1,
        2.65321895265761230930e-2,
        1.24266094738807843860e-3,
        2.71155556874348757815e-5,
        2.01033439929228813265e-7
    };
    private static final double[] TAIL_DENOMINATOR = {
        1.0,
        5.99832206555887937690e-1,
        1.36929880922735805310e-1,
        1.48753612908506148525e-2,
        7.86869131145613259100e-4,
        1.84631831751005468180e-5,
        1.42151175831644588870e-7,
        2.04426310338993978564e-15
    };

    private NormalQuantile() {}

    /**
     * Returns {@code z} with {@code P(Z <= z) = probability} for a standard normal {@code Z}.
     *
     * @throws IllegalArgumentException unless probability lies strictly between 0 and 1
     */
    static double inverseCdf(double probability) {
        if (!(probability > 0 && probability < 1)) {
            throw new IllegalArgumentException("probability must be above 0 and below 1, was " + probability);
        }
        double q = probability - 0.5;
        if (Math.abs(q) <= 0.425) {
            double r = 0.180625 - q * q;
            return q * polynomial(r, CENTRAL_NUMERATOR) / polynomial(r, CENTRAL_DENOMINATOR);
        }
        double r = Math.sqrt(-Math.log(q < 0 ? probability : 1 - probability));
        double z;
        if (r <= 5) {
            r -= 1.6;
            z = polynomial(r, INTERMEDIATE_NUMERATOR) / polynomial(r, INTERMEDIATE_DENOMINATOR);
        } else {
            r -= 5;
            z = polynomial(r, TAIL_NUMERATOR) / polynomial(r, TAIL_DENOMINATOR);
        }
        return q < 0 ? -z : z;
    }

    /**
     * Returns {@code z} with {@code P(-z <= Z <= z) = confidence}, for example 1.959963984540054 for 0.95.
     */
    public static double twoSided(double confidence) {
        return -inverseCdf(Confidence.tail(confidence));
    }

    /** Evaluates a polynomial by Horner's rule; coefficients from the constant term up. */
    private static double polynomial(double x, double[] coefficients) {
        double value = 0;
        for (int i = coefficients.length - 1; i >= 0; i--) {
            value = value * x + coefficients[i];
        }
        return value;
    }
}
