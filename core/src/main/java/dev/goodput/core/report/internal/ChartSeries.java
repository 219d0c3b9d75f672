package dev.goodput.core.report.internal;

import java.util.Arrays;
import java.util.Locale;

/**
 * One series of an {@link SvgChart}: a line, a line with a dot at each point, steps or unconnected dots. It is drawn
 * within a bounded size whatever its number of points ({@link PixelThinning}): a 100,000-request run's TTFT scatter
 * drew 100,000 dots, 20 MB of a report.
 */
record ChartSeries(String name, double[] x, double[] y, boolean dots, boolean step) {

    /** Draws the series and its legend entry at {@code legendY}; returns where the next entry goes. */
    double draw(StringBuilder svg, String color, Axis xAxis, Axis yAxis, double legendY) {
        int n = 0;
        double[] x = new double[x().length];
        double[] y = new double[x().length];
        int[] source = new int[x().length];
        for (int i = 0; i < x().length; i++) {
            if (Double.isFinite(x()[i]) && Double.isFinite(y()[i])) {
                x[n] = SvgChart.px(xAxis, x()[i]);
                y[n] = SvgChart.py(yAxis, y()[i]);
                source[n++] = i;
            }
        }
        boolean scatter = dots && step;
        if (scatter && n > PixelThinning.MAX_DOTS) {
            return drawBinned(svg, color, Arrays.copyOf(x, n), Arrays.copyOf(source, n), yAxis, legendY);
        }
        int[] kept = PixelThinning.line(Arrays.copyOf(x, n), Arrays.copyOf(y, n), SvgChart.PLOT_WIDTH);
        boolean drawDots = dots && kept.length <= PixelThinning.MAX_DOTS;
        StringBuilder path = new StringBuilder();
        double lastY = Double.NaN;
        for (int k : kept) {
            if (path.length() == 0) {
                path.append(String.format(Locale.ROOT, "M%.1f %.1f", x[k], y[k]));
            } else if (step) {
                path.append(String.format(Locale.ROOT, " L%.1f %.1f L%.1f %.1f", x[k], lastY, x[k], y[k]));
            } else {
                path.append(String.format(Locale.ROOT, " L%.1f %.1f", x[k], y[k]));
            }
            lastY = y[k];
            if (drawDots) {
                point(svg, name(), color, x[k], y[k], x()[source[k]], y()[source[k]]);
            }
        }
        if (!scatter && path.length() > 0) {
            svg.append("<path class=\"series\" d=\"")
                    .append(path)
                    .append("\" fill=\"none\" stroke=\"")
                    .append(color)
                    .append("\" stroke-width=\"2\"/>");
        }
        return ChartLegend.entry(svg, legendY, ChartLegend.Swatch.LINE, color, name());
    }

    /**
     * Draws a scatter too large to draw point by point as {@link PixelThinning#scatter bins}: each bin's spread as a
     * shaded band, its median as a line and its greatest point as a dot with its values.
     */
    private double drawBinned(StringBuilder svg, String color, double[] x, int[] source, Axis yAxis, double legendY) {
        double[] columns = new double[x.length];
        double[] values = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            columns[i] = x[i] - SvgChart.LEFT;
            values[i] = y()[source[i]];
        }
        PixelThinning.Bin[] bins = PixelThinning.scatter(columns, values, SvgChart.PLOT_WIDTH);
        svg.append(String.format(
                Locale.ROOT, "<g class=\"binned\" data-points=\"%d\" data-bins=\"%d\">", x.length, bins.length));
        StringBuilder upper = new StringBuilder();
        StringBuilder lower = new StringBuilder();
        StringBuilder median = new StringBuilder();
        for (int b = 0; b <= bins.length; b++) {
            if (b == bins.length || bins[b].count() == 0) {
                if (upper.length() > 0) {
                    svg.append("<polygon class=\"spread\" points=\"")
                            .append(upper)
                            .append(lower)
                            .append("\" fill=\"")
                            .append(color)
                            .append("\" fill-opacity=\"0.2\"/>");
                    upper.setLength(0);
                    lower.setLength(0);
                }
                continue;
            }
            double left = SvgChart.LEFT + b * PixelThinning.BIN_PIXELS;
            double right = Math.min(SvgChart.WIDTH - SvgChart.RIGHT, left + PixelThinning.BIN_PIXELS);
            double top = SvgChart.py(yAxis, bins[b].greatest());
            double bottom = SvgChart.py(yAxis, bins[b].least());
            upper.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", left, top, right, top));
            lower.insert(0, String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", left, bottom, right, bottom));
            median.append(String.format(
                    Locale.ROOT,
                    "%s%.1f %.1f",
                    median.length() == 0 || bins[b - 1].count() == 0 ? " M" : " L",
                    (left + right) / 2,
                    SvgChart.py(yAxis, bins[b].median())));
        }
        svg.append("<path class=\"series\" d=\"")
                .append(median.toString().strip())
                .append("\" fill=\"none\" stroke=\"")
                .append(color)
                .append("\" stroke-width=\"1.5\"/>");
        for (PixelThinning.Bin bin : bins) {
            if (bin.count() > 0) {
                int i = bin.greatestIndex();
                point(svg, name(), color, x[i], SvgChart.py(yAxis, values[i]), x()[source[i]], values[i]);
            }
        }
        svg.append("</g>");
        double next = ChartLegend.entry(svg, legendY, ChartLegend.Swatch.LINE, color, name() + ": median of each bin");
        next = ChartLegend.entry(svg, next, ChartLegend.Swatch.BAND, color, "least to greatest");
        return ChartLegend.entry(
                svg,
                next,
                ChartLegend.Swatch.DOT,
                color,
                "greatest of each bin (" + x.length + " points in " + bins.length + " bins)");
    }

    private static void point(
            StringBuilder svg, String name, String color, double x, double y, double dataX, double dataY) {
        svg.append(String.format(
                Locale.ROOT,
                "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s: %s, %s</title>"
                        + "</circle>",
                x,
                y,
                color,
                Html.escape(name),
                Axis.label(dataX),
                Axis.label(dataY)));
    }
}
