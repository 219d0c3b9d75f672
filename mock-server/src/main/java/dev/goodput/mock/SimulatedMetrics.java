package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What the mock server's {@code /metrics} exports besides vLLM's current series: a simulated GPU under the names
 * of NVIDIA's DCGM exporter, and optionally the names older vLLM builds used, so that a scraper can be tested
 * against both.
 *
 * <p>The simulated GPU is busy while the engine steps: {@code DCGM_FI_DEV_GPU_UTIL} is the percentage of the last
 * second the engine spent in steps, {@code DCGM_FI_DEV_POWER_USAGE} is {@code idle + (busy - idle) x
 * utilisation} watts, and {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} integrates that power in millijoules.
 *
 * @param gpuIdleWatts the power the simulated GPU draws when the engine is idle, at least 0 (default 70 W)
 * @param gpuBusyWatts the power it draws when the engine steps all the time, at least {@code gpuIdleWatts}
 *     (default 350 W)
 * @param deprecatedVllmNames whether to also export {@code vllm:gpu_cache_usage_perc} and
 *     {@code vllm:gpu_prefix_cache_queries}/{@code hits}, as vLLM 0.10 did beside the current names (default
 *     false)
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record SimulatedMetrics(double gpuIdleWatts, double gpuBusyWatts, boolean deprecatedVllmNames) {

    /** Checks that the powers are finite, not negative, and busy at least idle. */
    public SimulatedMetrics {
        if (!(gpuIdleWatts >= 0) || Double.isInfinite(gpuIdleWatts)) {
            throw new IllegalArgumentException("gpuIdleWatts must be a finite number >= 0, was " + gpuIdleWatts);
        }
        if (!(gpuBusyWatts >= gpuIdleWatts) || Double.isInfinite(gpuBusyWatts)) {
            throw new IllegalArgumentException("gpuBusyWatts must be finite and at least gpuIdleWatts (" + gpuIdleWatts
                    + "), was " + gpuBusyWatts);
        }
    }

    /** Returns the defaults: 70 W idle, 350 W busy, current vLLM names only. */
    public static SimulatedMetrics defaults() {
        return new SimulatedMetrics(70, 350, false);
    }

    /** Returns a copy whose simulated GPU draws {@code idleWatts} when idle and {@code busyWatts} when busy. */
    public SimulatedMetrics withGpuWatts(double idleWatts, double busyWatts) {
        return new SimulatedMetrics(idleWatts, busyWatts, deprecatedVllmNames);
    }

    /** Returns a copy that does (or does not) also export vLLM's deprecated names. */
    public SimulatedMetrics withDeprecatedVllmNames(boolean deprecatedVllmNames) {
        return new SimulatedMetrics(gpuIdleWatts, gpuBusyWatts, deprecatedVllmNames);
    }
}
