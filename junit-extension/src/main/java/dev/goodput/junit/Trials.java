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
 * Runs an annotated gate's load several times and judges the trials together, and sets its noise policy.
 *
 * <p>Each objective gets one verdict from all trials ({@link dev.goodput.core.result.TrialSummary}); the reports show each
 * trial and the variation of the key figures between them; a comparison with a baseline uses the spread between
 * trials, the run-to-run noise that a single run cannot show. The configuration parameter
 * {@code goodput.trials.scale} multiplies the count (for example 3 on a nightly job, 0.34 for a quick local run; at
 * least one trial always runs).
 *
 * <p>Every run starts from the same server state, so that the trials differ only by run-to-run variation: before
 * each trial (and each repeated attempt) a simulated server is {@linkplain dev.goodput.mock.MockServer#reset(
 * java.time.Duration) reset} (empty prefix and KV cache, zeroed counters), and any other server is sent
 * {@code POST} {@link #resetPath()} when it is set (a {@code GoodputMockServerContainer} gets its reset path
 * without it). Each trial also runs the gate's warm-up ({@code
 * LoadProfile.warmupRequests}, {@code warmupSeconds}) before it measures. Goodput cannot reset a real server
 * without such an endpoint: its later trials may then find the earlier trials' prompts in its prefix cache.
 *
 * <p>Noise policy: a trial whose client could not keep up with its schedule, or with an objective INCONCLUSIVE, is
 * run again before it counts as it is; and a comparison with a baseline that comes out INCONCLUSIVE gets one more
 * trial. {@link #retries()} bounds these extra runs for the whole gate. Every attempt is kept in the reports.
 *
 * <pre>{@code
 * @Test
 * @LoadProfile(arrivals = POISSON, rate = 8, requests = 400)
 * @Slo(metric = TTFT, percentile = 90, atMostMillis = 500)
 * @Trials(value = 3, retries = 1)
 * void chat_keeps_its_latency() {}
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface Trials {

    /** The number of trials, at least 1, before {@code goodput.trials.scale}. */
    int value() default 1;

    /** How many extra runs the noise policy may add to the gate in all, at least 0. */
    int retries() default 0;

    /**
     * A path on the server under test that is sent an empty {@code POST} before each run to empty its caches;
     * anything but a 2xx answer fails the gate. For example {@code "/reset_prefix_cache"} for vLLM started with
     * {@code VLLM_SERVER_DEV_MODE=1}, {@code "/flush_cache"} for SGLang. Empty for none; the simulated server,
     * embedded or in a {@code GoodputMockServerContainer}, is reset without it.
     */
    String resetPath() default "";
}
