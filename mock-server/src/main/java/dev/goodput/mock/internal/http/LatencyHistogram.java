package dev.goodput.mock.internal.http;

/** A Prometheus histogram with fixed upper bounds in seconds; thread-safe. */
final class LatencyHistogram {

    /** vLLM's buckets for {@code vllm:time_to_first_token_seconds}. */
    static final double[] TTFT_BUCKETS = {
        0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0,
        160.0, 640.0, 2560.0
    };

    /** vLLM's buckets for {@code vllm:inter_token_latency_seconds}. */
    static final double[] ITL_BUCKETS = {
        0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0
    };

    /** vLLM's buckets for {@code vllm:e2e_request_latency_seconds}. */
    static final double[] E2E_BUCKETS = {
        0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0,
        1920.0, 7680.0
    };

    private final double[] bounds;
    private final long[] counts;
    private double sum;
    private long count;

    LatencyHistogram(double[] bounds) {
        this.bounds = bounds;
        this.counts = new long[bounds.length];
    }

    synchronized void observeNanos(long nanos) {
        double seconds = nanos / 1e9;
        for (int i = 0; i < bounds.length; i++) {
            if (seconds <= bounds[i]) {
                counts[i]++;
                break;
            }
        }
        sum += seconds;
        count++;
    }

    /** Forgets every observation, as on a fresh server. */
    synchronized void reset() {
        java.util.Arrays.fill(counts, 0);
        sum = 0;
        count = 0;
    }

    /** Appends the {@code _bucket}, {@code _sum} and {@code _count} lines (cumulative buckets, then +Inf). */
    synchronized void render(StringBuilder out, String name, String labels) {
        long cumulative = 0;
        for (int i = 0; i < bounds.length; i++) {
            cumulative += counts[i];
            out.append(name)
                    .append("_bucket{")
                    .append(labels)
                    .append(",le=\"")
                    .append(bounds[i])
                    .append("\"} ")
                    .append((double) cumulative)
                    .append('\n');
        }
        out.append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ");
        out.append((double) count).append('\n');
        out.append(name).append("_sum{").append(labels).append("} ").append(sum).append('\n');
        out.append(name)
                .append("_count{")
                .append(labels)
                .append("} ")
                .append((double) count)
                .append('\n');
    }
}
