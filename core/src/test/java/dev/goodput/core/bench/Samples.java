package dev.goodput.core.bench;

import java.util.Arrays;

/** Nanosecond samples with exact percentiles (nearest rank). */
final class Samples {
    private long[] values = new long[1024];
    private int size;
    private boolean sorted;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
        sorted = false;
    }

    int size() {
        return size;
    }

    long get(int index) {
        return values[index];
    }

    double percentile(double p) {
        if (size == 0) {
            return Double.NaN;
        }
        if (!sorted) {
            Arrays.sort(values, 0, size);
            sorted = true;
        }
        int rank = (int) Math.ceil(p / 100 * size);
        return values[Math.max(0, Math.min(size - 1, rank - 1))];
    }
}
