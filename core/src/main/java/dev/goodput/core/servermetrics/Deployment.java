package dev.goodput.core.servermetrics;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the server runs on, as the user states it: the GPU, how many, what a GPU-hour costs and the model's size.
 * Nothing here is measured; it turns measured figures into a cost per million good tokens, a throughput per GPU
 * and the bandwidth check (the decode step a memory-bound GPU would take at batch 1). Unknown numbers are NaN and
 * the figures that need them are left out.
 *
 * @param gpu the GPU's name as stated, for example {@code "H100-SXM"}; empty when not stated
 * @param gpuCount GPUs serving the model (at least 1)
 * @param pricePerGpuHour what one GPU-hour costs, in any currency; NaN when not stated
 * @param memoryBandwidthGBps one GPU's memory bandwidth in GB/s (10^9 bytes); NaN when neither stated nor known
 *     from {@link #GPU_BANDWIDTH_GBPS}
 * @param modelParameters the model's parameter count, for example {@code 8e9}; NaN when not stated
 * @param bytesPerParameter bytes per weight as served: 2 for BF16/FP16, 1 for FP8/INT8, 0.5 for 4-bit; NaN when
 *     not stated
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record Deployment(
        String gpu,
        int gpuCount,
        double pricePerGpuHour,
        double memoryBandwidthGBps,
        double modelParameters,
        double bytesPerParameter) {

    /**
     * Memory bandwidth of common GPUs in GB/s, from their makers' data sheets; looked up by name without regard to
     * case. State the bandwidth yourself for anything else.
     */
    public static final Map<String, Double> GPU_BANDWIDTH_GBPS = presets();

    /** Nothing stated: one GPU, no price, no model size. */
    public static final Deployment UNSTATED = new Deployment("", 1, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /**
     * Checks the statement.
     *
     * @throws InvalidSettingException naming the field and its value when the count is under 1 or a stated number
     *     is not positive and finite
     */
    public Deployment {
        gpu = gpu == null ? "" : gpu.trim();
        if (gpuCount < 1) {
            throw InvalidSettingException.of("gpuCount", gpuCount, "must be at least 1");
        }
        requirePositiveOrUnstated("pricePerGpuHour", pricePerGpuHour);
        requirePositiveOrUnstated("memoryBandwidthGBps", memoryBandwidthGBps);
        requirePositiveOrUnstated("modelParameters", modelParameters);
        requirePositiveOrUnstated("bytesPerParameter", bytesPerParameter);
        if (Double.isNaN(memoryBandwidthGBps) && !gpu.isEmpty()) {
            memoryBandwidthGBps = bandwidthOf(gpu).orElse(Double.NaN);
        }
    }

    /** Returns a deployment on {@code count} GPUs of the named kind, its bandwidth from the presets when known. */
    public static Deployment of(String gpu, int count) {
        return new Deployment(gpu, count, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** Returns the preset memory bandwidth of a GPU in GB/s, if it is one of {@link #GPU_BANDWIDTH_GBPS}. */
    public static Optional<Double> bandwidthOf(String gpu) {
        return Optional.ofNullable(GPU_BANDWIDTH_GBPS.get(gpu.trim().toUpperCase(Locale.ROOT)));
    }

    /** Returns this deployment with a price per GPU-hour. */
    public Deployment withPricePerGpuHour(double value) {
        return new Deployment(gpu, gpuCount, value, memoryBandwidthGBps, modelParameters, bytesPerParameter);
    }

    /** Returns this deployment with a stated memory bandwidth per GPU, in GB/s. */
    public Deployment withMemoryBandwidthGBps(double value) {
        return new Deployment(gpu, gpuCount, pricePerGpuHour, value, modelParameters, bytesPerParameter);
    }

    /** Returns this deployment serving a model of {@code parameters} weights of {@code bytesPerParameter} each. */
    public Deployment withModel(double parameters, double bytesPerParameter) {
        return new Deployment(gpu, gpuCount, pricePerGpuHour, memoryBandwidthGBps, parameters, bytesPerParameter);
    }

    /** Returns whether anything beyond the defaults was stated. */
    public boolean isStated() {
        return !equals(UNSTATED);
    }

    /**
     * Returns the decode step a memory-bound server would take at batch 1, in seconds: every weight read once per
     * token, {@code parameters × bytesPerParameter / (bandwidth × gpuCount)} (tensor parallelism splits the
     * weights over the GPUs); NaN unless the model size and the bandwidth are known. The KV cache and activations
     * are left out, which is right at batch 1 with short contexts and optimistic otherwise.
     */
    public double predictedDecodeStepSeconds() {
        return modelParameters * bytesPerParameter / (memoryBandwidthGBps * 1e9 * gpuCount);
    }

    private static void requirePositiveOrUnstated(String field, double value) {
        if (!Double.isNaN(value) && !(value > 0 && Double.isFinite(value))) {
            throw InvalidSettingException.of(field, value, "must be a positive finite number (or unstated)");
        }
    }

    private static Map<String, Double> presets() {
        Map<String, Double> bandwidth = new LinkedHashMap<>();
        bandwidth.put("B200", 8000.0);
        bandwidth.put("H200", 4800.0);
        bandwidth.put("H100-SXM", 3350.0);
        bandwidth.put("H100-NVL", 3900.0);
        bandwidth.put("H100-PCIE", 2000.0);
        bandwidth.put("A100-SXM-80GB", 2039.0);
        bandwidth.put("A100-PCIE-80GB", 1935.0);
        bandwidth.put("A100-40GB", 1555.0);
        bandwidth.put("L40S", 864.0);
        bandwidth.put("A10G", 600.0);
        bandwidth.put("L4", 300.0);
        bandwidth.put("MI300X", 5300.0);
        bandwidth.put("MI325X", 6000.0);
        bandwidth.put("RTX-4090", 1008.0);
        return java.util.Collections.unmodifiableMap(bandwidth);
    }
}
