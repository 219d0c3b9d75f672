package dev.goodput.core.report.internal;

import java.util.Arrays;

/**
 * Keeps a chart's size bounded by what its pixels can show, whatever the number of requests. A line keeps, in each
 * pixel column, its first, lowest, highest and last point (the M4 reduction of Jugel et al., VLDB 2014), so it is
 * drawn the same to the pixel with at most four points a column. A scatter of many points becomes bins of a few
 * columns, each drawn as its spread (least to greatest), its median and its greatest point; so the worst request of
 * every stretch of the run stays a dot of its own, with its values.
 */
final class PixelThinning {

    /** A line with more points than this many per pixel column of the plot is thinned. */
    static final int LINE_POINTS_PER_COLUMN = 4;

    /** A scatter with more points than this is binned; a 1,000-point scatter is about 110 KB of SVG. */
    static final int MAX_DOTS = 1_000;

    /** The width of a scatter's bin, in pixels. */
    static final int BIN_PIXELS = 3;

    private PixelThinning() {}

    /**
     * Returns the indices of the points a line keeps, in order: all of them when they are few, else each pixel
     * column's first, lowest, highest and last.
     *
     * @param x the points' horizontal pixel positions, in the order they are drawn
     * @param y their vertical pixel positions
     */
    static int[] line(double[] x, double[] y, int plotWidth) {
        int n = x.length;
        if (n <= LINE_POINTS_PER_COLUMN * plotWidth) {
            return indices(n);
        }
        int[] kept = new int[n];
        int count = 0;
        int start = 0;
        while (start < n) {
            long column = (long) Math.floor(x[start]);
            int end = start;
            int lowest = start;
            int highest = start;
            while (end + 1 < n && (long) Math.floor(x[end + 1]) == column) {
                end++;
                lowest = y[end] < y[lowest] ? end : lowest;
                highest = y[end] > y[highest] ? end : highest;
            }
            int[] four = {start, Math.min(lowest, highest), Math.max(lowest, highest), end};
            for (int index : four) {
                if (count == 0 || kept[count - 1] != index) {
                    kept[count++] = index;
                }
            }
            start = end + 1;
        }
        return Arrays.copyOf(kept, count);
    }

    private static int[] indices(int n) {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return all;
    }

    /**
     * One bin of a scatter: the least, median and greatest value of its points (data units) and the index of its
     * greatest point; {@code count} 0 for an empty bin.
     */
    record Bin(int count, double least, double median, double greatest, int greatestIndex) {}

    /**
     * Bins a scatter by pixel column, {@value #BIN_PIXELS} columns a bin.
     *
     * @param columns the points' horizontal pixel positions relative to the plot's left edge
     * @param values their values (data units)
     */
    static Bin[] scatter(double[] columns, double[] values, int plotWidth) {
        int binCount = Math.max(1, (plotWidth + BIN_PIXELS - 1) / BIN_PIXELS);
        int[] binOf = new int[columns.length];
        int[] sizes = new int[binCount];
        for (int i = 0; i < columns.length; i++) {
            binOf[i] = (int) Math.max(0, Math.min(binCount - 1, Math.floor(columns[i] / BIN_PIXELS)));
            sizes[binOf[i]]++;
        }
        int[] offsets = new int[binCount + 1];
        for (int b = 0; b < binCount; b++) {
            offsets[b + 1] = offsets[b] + sizes[b];
        }
        double[] sorted = new double[columns.length];
        int[] filled = Arrays.copyOf(offsets, binCount);
        int[] greatest = new int[binCount];
        Arrays.fill(greatest, -1);
        for (int i = 0; i < columns.length; i++) {
            int b = binOf[i];
            sorted[filled[b]++] = values[i];
            if (greatest[b] < 0 || values[i] > values[greatest[b]]) {
                greatest[b] = i;
            }
        }
        Bin[] bins = new Bin[binCount];
        for (int b = 0; b < binCount; b++) {
            int from = offsets[b];
            int to = offsets[b + 1];
            if (from == to) {
                bins[b] = new Bin(0, Double.NaN, Double.NaN, Double.NaN, -1);
                continue;
            }
            Arrays.sort(sorted, from, to);
            int size = to - from;
            double median = size % 2 == 1
                    ? sorted[from + size / 2]
                    : (sorted[from + size / 2 - 1] + sorted[from + size / 2]) / 2;
            bins[b] = new Bin(size, sorted[from], median, sorted[to - 1], greatest[b]);
        }
        return bins;
    }
}
