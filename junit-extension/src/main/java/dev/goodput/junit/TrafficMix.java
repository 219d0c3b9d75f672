package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.workload.WorkloadMix;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Holds the {@link TrafficClass}es of a mix, and says how each request's class is chosen: write {@code
 * @TrafficClass} several times, or this with the classes inside when the draw needs a seed or interleaving.
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface TrafficMix {

    /** The classes. */
    TrafficClass[] value();

    /** How each request's class is chosen: drawn at random by weight (default), or interleaved in exact shares. */
    WorkloadMix.Selection selection() default WorkloadMix.Selection.RANDOM;

    /** Seeds the random draw of classes. */
    long seed() default 0;
}
