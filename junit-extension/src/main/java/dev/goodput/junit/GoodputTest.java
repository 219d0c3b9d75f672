package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Switches Goodput on for a test class: every test method with a {@link LoadProfile} (on the method or the
 * class) becomes a performance gate. The load runs before the method body; the body receives the
 * {@link dev.goodput.core.result.RunResult} if it declares a parameter of that type; after the body every objective
 * is judged and the test fails with one message listing all of them.
 *
 * <p>Every other Goodput annotation ({@link Workload}, {@link LoadProfile}, {@link Slo}, {@link LoadSweep},
 * {@link MaxGoodputRate}, {@link SimulatedServer}, {@link ServerUrl}, {@link ServerUnderTest}) also switches the
 * extension on by itself, so a gate whose class lacks {@code @GoodputTest} still runs and is judged instead of
 * passing without a load; JUnit registers the extension once however often it is declared. {@link LoadProfile} and
 * {@link LoadSweep} also carry this annotation's tag and resource lock.
 *
 * <p>Tagged {@value #TAG}, so a build can include or exclude performance tests by tag. Every test of a
 * {@code @GoodputTest} class holds the {@value #RESOURCE_LOCK} resource lock, so performance tests never run
 * concurrently with each other, even with parallel execution enabled.
 *
 * <p>Configuration parameters (from {@code junit-platform.properties}, Surefire's
 * {@code configurationParameters}, or {@code -D}):
 *
 * <ul>
 *   <li>{@code goodput.server.url}, {@code goodput.server.model}, {@code goodput.server.api-key-env}: run every
 *       test against this server instead of the one the class declares (see {@link ServerUrl});
 *   <li>{@code goodput.load.scale}: multiply request counts and durations (see {@link LoadProfile});
 *   <li>{@code goodput.slo.inconclusive}: {@code fail} (default) or {@code warn} (see {@link Slo});
 *   <li>{@code goodput.report.dir}: where reports go, default {@code target/goodput};
 *   <li>{@code goodput.progress}: {@code auto} (default), {@code on} or {@code off}: on a terminal a line
 *       rewritten in place, in a log a plain line every 10 s (with {@code auto} for runs longer than 15 s);
 *   <li>{@code goodput.client.untrustworthy}, {@code goodput.client.send-lag-limit-ms}: the client-health policy.
 * </ul>
 *
 * <p>A {@code goodput.*} key Goodput does not know, among the system properties or in a
 * {@code junit-platform.properties} on the class path, fails the test with the nearest known key.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(GoodputTest.TAG)
@ResourceLock(GoodputTest.RESOURCE_LOCK)
@ExtendWith(GoodputExtension.class)
public @interface GoodputTest {

    /** The tag every Goodput test carries. */
    String TAG = "performance";

    /** The resource lock every Goodput test holds. */
    String RESOURCE_LOCK = "dev.goodput.server-under-test";
}
