package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import org.apiguardian.api.API;

/**
 * Where and when a run happened, recorded so that two results can be compared knowingly.
 *
 * @param startedAt wall-clock start (metadata only; all measurement uses the monotonic clock)
 * @param goodputVersion the Goodput version, or {@code "dev"} when unknown
 * @param javaVersion {@code java.version}
 * @param javaVendor {@code java.vendor}
 * @param osName {@code os.name}
 * @param osArch {@code os.arch}
 * @param availableProcessors processors available to the JVM
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunEnvironment(
        Instant startedAt,
        String goodputVersion,
        String javaVersion,
        String javaVendor,
        String osName,
        String osArch,
        int availableProcessors) {

    /** Describes the current JVM, with the given start instant. */
    public static RunEnvironment current(Instant startedAt) {
        String version = RunEnvironment.class.getPackage().getImplementationVersion();
        return new RunEnvironment(
                startedAt,
                version == null ? "dev" : version,
                System.getProperty("java.version"),
                System.getProperty("java.vendor"),
                System.getProperty("os.name"),
                System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors());
    }
}
