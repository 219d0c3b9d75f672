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
 * What the server under test runs on, as you state it ({@link dev.goodput.core.servermetrics.Deployment}): with a
 * price, the report gives the cost per million good output tokens and it can be judged
 * ({@code @Slo(metric = Metric.COST_PER_MILLION_GOOD_TOKENS, atMost = 2.0)}); with the model's size and a GPU whose
 * bandwidth is known, the report checks whether decode looks memory-bound. Unset numbers are NaN.
 *
 * <pre>{@code
 * @GpuDeployment(gpu = "H100-SXM", count = 1, pricePerGpuHour = 2.49, modelParameters = 8e9, bytesPerParameter = 2)
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface GpuDeployment {

    /** The GPU's name; a name in {@code Deployment.GPU_BANDWIDTH_GBPS} brings its memory bandwidth. */
    String gpu() default "";

    /** GPUs serving the model. */
    int count() default 1;

    /** What one GPU-hour costs, in any currency. */
    double pricePerGpuHour() default Double.NaN;

    /** One GPU's memory bandwidth in GB/s, when the GPU is not a preset (or to override it). */
    double memoryBandwidthGBps() default Double.NaN;

    /** The model's parameter count, for example {@code 8e9}. */
    double modelParameters() default Double.NaN;

    /** Bytes per weight as served: 2 for BF16, 1 for FP8, 0.5 for 4-bit. */
    double bytesPerParameter() default Double.NaN;
}
