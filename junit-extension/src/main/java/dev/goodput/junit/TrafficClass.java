package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One class of a traffic mix: a named share of the requests with its own {@link Workload}, for example 70 %
 * short chat beside 30 % long-document RAG. Repeat it for each class; the classes together replace
 * {@code @Workload} (write each class's workload inside it). Every metric, goodput and objective is then
 * reported per class and overall, and {@code @Slo(trafficClass = "chat", ...)} judges one class's requests
 * alone. {@link TrafficMix} chooses how classes are drawn. Becomes a {@link
 * dev.goodput.core.workload.TrafficClassSpec} of a {@link dev.goodput.core.workload.WorkloadMix}; see {@code
 * docs/workloads.md}.
 *
 * <pre>{@code
 * @TrafficClass(name = "chat", weight = 70, workload = @Workload(inputTokens = 200, outputTokens = 100))
 * @TrafficClass(name = "rag", weight = 30, workload = @Workload(inputTokens = 4000, outputTokens = 200))
 * @Slo(trafficClass = "chat", metric = TTFT, percentile = 99, atMost = 300)
 * @Slo(trafficClass = "rag", metric = E2EL, percentile = 90, atMost = 8000)
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Repeatable(TrafficMix.class)
@ExtendWith(GoodputExtension.class)
public @interface TrafficClass {

    /** Marks {@link #priority()} as not sent. */
    int NO_PRIORITY = Integer.MIN_VALUE;

    /** The class's name in reports and in {@code @Slo(trafficClass = ...)}: letters, digits, _, - and . */
    String name();

    /** The class's share of the requests, relative to the other classes' weights; above 0. */
    double weight();

    /** What the class's requests send; the default is {@code @Workload}'s own default. */
    Workload workload() default @Workload;

    /** vLLM's {@code priority} body field (lower is served first under {@code --scheduling-policy priority}). */
    int priority() default NO_PRIORITY;

    /** HTTP headers sent with each of the class's requests, each as {@code "Name: value"}. */
    String[] headers() default {};
}
