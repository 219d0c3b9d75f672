package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@link LoadSweep}'s gate: the max goodput rate - the highest offered rate at which the SLO attainment stays
 * at or above the sweep's target - must be at least {@link #atLeast()} requests per second. When it is not, the
 * test fails with every objective as measured at the highest rate tried at or above the bound, and the runs.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface MaxGoodputRate {

    /** The least max goodput rate, in requests per second. */
    double atLeast();
}
