package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.load.Load;
import dev.goodput.core.workload.internal.TraceFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A recorded arrival trace: when each request came and how long its prompt and output were. Read one of the
 * public formats, rescale its time, and replay it with {@link #workload()} and {@link #load()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Trace {

    private final String source;
    private final List<TraceRequest> requests;
    private final double timeScale;

    private Trace(String source, List<TraceRequest> requests, double timeScale) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("trace " + source + " holds no request");
        }
        List<TraceRequest> sorted = new ArrayList<>(requests);
        sorted.sort(Comparator.comparingLong(TraceRequest::offsetNanos));
        long first = sorted.get(0).offsetNanos();
        this.requests = sorted.stream()
                .map(r -> new TraceRequest(r.offsetNanos() - first, r.inputTokens(), r.outputTokens(), r.hashIds()))
                .toList();
        this.source = source;
        this.timeScale = timeScale;
    }

    /** Requests given in code; offsets are made relative to the earliest. */
    public static Trace of(List<TraceRequest> requests) {
        return new Trace("code", requests, 1.0);
    }

    /**
     * Mooncake JSONL: one object per line with {@code timestamp} (ms), {@code input_length}, {@code
     * output_length} and optional {@code hash_ids} (one per 512-token block; equal leading ids share a prefix).
     *
     * @throws WorkloadFileException naming the file, line and field
     */
    public static Trace mooncake(Path file) {
        return new Trace("mooncake:" + file, TraceFiles.mooncake(file), 1.0);
    }

    /**
     * Azure LLM inference CSV (2023 and 2024): {@code TIMESTAMP} (wall clock, e.g. {@code 2023-11-16
     * 18:15:46.6805900}), {@code ContextTokens}, {@code GeneratedTokens}.
     *
     * @throws WorkloadFileException naming the file, line and field
     */
    public static Trace azure(Path file) {
        return new Trace("azure:" + file, TraceFiles.azure(file), 1.0);
    }

    /**
     * BurstGPT CSV: {@code Timestamp} (s from start), {@code Request tokens}, {@code Response tokens}. Rows with 0
     * request or response tokens (failed requests) are skipped.
     *
     * @throws WorkloadFileException naming the file, line and field
     */
    public static Trace burstGpt(Path file) {
        return new Trace("burstgpt:" + file, TraceFiles.burstGpt(file), 1.0);
    }

    /** Returns a copy whose offsets are multiplied by {@code factor}: 0.5 replays twice as fast. */
    public Trace timeScaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw InvalidSettingException.of("timeScaled factor", factor, "must be a finite value above 0");
        }
        List<TraceRequest> scaled = requests.stream()
                .map(r -> new TraceRequest(
                        Math.round(r.offsetNanos() * factor), r.inputTokens(), r.outputTokens(), r.hashIds()))
                .toList();
        return new Trace(source, scaled, timeScale * factor);
    }

    /** Returns a copy time-scaled so that its mean arrival rate is {@code requestsPerSecond}. */
    public Trace atRate(double requestsPerSecond) {
        if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
            throw InvalidSettingException.of("rate", requestsPerSecond, "must be a finite value above 0");
        }
        if (requests.size() < 2 || span() == 0) {
            throw InvalidSettingException.conflict(
                    name -> "trace " + source + " has no time span to scale to a " + name.apply("rate"), "rate");
        }
        return timeScaled((requests.size() - 1) / requestsPerSecond / (span() / 1e9));
    }

    /** Returns the requests, ordered by offset, the first at 0. */
    public List<TraceRequest> requests() {
        return requests;
    }

    /** Returns the mean arrival rate in requests/s (NaN for a single request or no time span). */
    public double meanRate() {
        return requests.size() < 2 || span() == 0 ? Double.NaN : (requests.size() - 1) / (span() / 1e9);
    }

    private long span() {
        return requests.get(requests.size() - 1).offsetNanos();
    }

    /** Returns a replay of every request, prompts counted by the simulated server's rule. */
    public TraceWorkload workload() {
        return TraceWorkload.builder(this).build();
    }

    /** Returns an open loop that replays every request at its offset. */
    public Load load() {
        return Load.traceReplay().requests(requests.size());
    }

    /** Describes this trace for the run's recorded configuration. */
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("source", source);
        description.put("requests", requests.size());
        description.put("time_scale", timeScale);
        description.put("mean_rate", Double.isNaN(meanRate()) ? null : meanRate());
        return description;
    }
}
