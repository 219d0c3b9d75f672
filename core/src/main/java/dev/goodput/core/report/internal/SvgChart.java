package dev.goodput.core.report.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a line or scatter chart as inline SVG, with axes, nice ticks, a legend, reference lines (an objective's
 * bound; {@link ReferenceLines} scales the axes to the data and marks a line beyond them at the edge) and labelled
 * marks (the max-goodput point). No script, no fonts, no network. The root element carries its axes' ranges
 * ({@code data-x-axis}, {@code data-y-axis}: minimum and maximum).
 */
public final class SvgChart {

    static final int WIDTH = 640;
    static final int HEIGHT = 340;
    static final int LEFT = 64;
    static final int RIGHT = 150;
    static final int TOP = 30;
    static final int BOTTOM = 46;
    static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

    private final String id;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<ChartSeries> series = new ArrayList<>();
    private final ReferenceLines horizontals = new ReferenceLines(false);
    private final ReferenceLines verticals = new ReferenceLines(true);
    private final List<double[]> marks = new ArrayList<>();
    private final List<String> markLabels = new ArrayList<>();
    private String bandLabel;
    private double bandFrom = Double.NaN;
    private double bandTo = Double.NaN;

    public SvgChart(String id, String title, String xLabel, String yLabel) {
        this.id = id;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Adds a line through the points, in the order given. */
    public SvgChart line(String name, double[] x, double[] y) {
        series.add(new ChartSeries(name, x, y, false, false));
        return this;
    }

    /** Adds a line with a dot at every point. */
    public SvgChart lineWithDots(String name, double[] x, double[] y) {
        series.add(new ChartSeries(name, x, y, true, false));
        return this;
    }

    /** Adds a step line (value held until the next point). */
    public SvgChart steps(String name, double[] x, double[] y) {
        series.add(new ChartSeries(name, x, y, false, true));
        return this;
    }

    /** Adds unconnected dots. */
    public SvgChart dots(String name, double[] x, double[] y) {
        series.add(new ChartSeries(name, x, y, true, true));
        return this;
    }

    /** Adds a dashed horizontal line across the chart, for example an objective's bound. */
    public SvgChart horizontal(String label, double y) {
        horizontals.add(label, y);
        return this;
    }

    /** Adds a dashed vertical line, for example an objective's bound on a distribution's value axis. */
    public SvgChart vertical(String label, double x) {
        verticals.add(label, x);
        return this;
    }

    /** Shades the x range {@code [from, to]} behind the series, for example a run's steady-state window. */
    public SvgChart band(String label, double from, double to) {
        bandLabel = label;
        bandFrom = from;
        bandTo = to;
        return this;
    }

    /** Adds a labelled mark at a point. */
    public SvgChart mark(String label, double x, double y) {
        marks.add(new double[] {x, y});
        markLabels.add(label);
        return this;
    }

    /** Returns the chart as an {@code <svg>} element. */
    public String render() {
        double[] xData = dataRange(true);
        double[] yData = dataRange(false);
        Axis xAxis = axis(verticals.widen(xData[0], xData[1]));
        Axis yAxis = axis(horizontals.widen(Math.min(0, yData[0]), yData[1]));
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg class=\"chart\" id=\"%s\" data-series=\"%d\" data-x-axis=\"%s %s\" data-y-axis=\"%s %s\""
                        + " xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " role=\"img\" aria-label=\"%s\">",
                Html.escape(id),
                series.size(),
                Axis.label(xAxis.min()),
                Axis.label(xAxis.max()),
                Axis.label(yAxis.min()),
                Axis.label(yAxis.max()),
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT,
                Html.escape(title)));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>");
        text(svg, WIDTH / 2.0 - RIGHT / 2.0, 18, title, "middle", "title");
        grid(svg, xAxis, yAxis);
        drawBand(svg, xAxis);
        horizontals.draw(svg, yAxis);
        verticals.draw(svg, xAxis);
        double legendY = TOP + 14 + ChartLegend.ROW * (horizontals.size() + 1);
        for (int s = 0; s < series.size(); s++) {
            legendY = series.get(s).draw(svg, COLORS[s % COLORS.length], xAxis, yAxis, legendY);
        }
        for (int i = 0; i < marks.size(); i++) {
            double x = px(xAxis, marks.get(i)[0]);
            double y = py(yAxis, marks.get(i)[1]);
            svg.append(String.format(
                    Locale.ROOT,
                    "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#000\""
                            + " stroke-width=\"2\"/>",
                    x,
                    y));
            boolean nearRight = x > LEFT + (WIDTH - LEFT - RIGHT) * 0.6;
            double labelY = y - 9 < TOP + 12 ? y + 20 : y - 9;
            text(svg, nearRight ? x - 9 : x + 9, labelY, markLabels.get(i), nearRight ? "end" : "start", "mark-label");
        }
        return svg.append("</svg>").toString();
    }

    private void drawBand(StringBuilder svg, Axis xAxis) {
        if (!(bandTo > bandFrom)) {
            return;
        }
        double from = px(xAxis, Math.max(bandFrom, xAxis.min()));
        double to = px(xAxis, Math.min(bandTo, xAxis.max()));
        svg.append(String.format(
                Locale.ROOT,
                "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#2ca02c\""
                        + " fill-opacity=\"0.12\"><title>%s</title></rect>",
                from,
                TOP,
                Math.max(0, to - from),
                HEIGHT - TOP - BOTTOM,
                Html.escape(bandLabel)));
        text(svg, (from + to) / 2, TOP + 12, bandLabel, "middle", "band-label");
    }

    private void grid(StringBuilder svg, Axis xAxis, Axis yAxis) {
        for (double tick : xAxis.ticks()) {
            double x = px(xAxis, tick);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#eee\"/>",
                    x,
                    x,
                    TOP,
                    HEIGHT - BOTTOM));
            text(svg, x, HEIGHT - BOTTOM + 16, Axis.label(tick), "middle", "tick");
        }
        for (double tick : yAxis.ticks()) {
            double y = py(yAxis, tick);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>",
                    LEFT,
                    WIDTH - RIGHT,
                    y,
                    y));
            text(svg, LEFT - 6, y + 4, Axis.label(tick), "end", "tick");
        }
        svg.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
                LEFT,
                TOP,
                WIDTH - LEFT - RIGHT,
                HEIGHT - TOP - BOTTOM));
        text(svg, LEFT + (WIDTH - LEFT - RIGHT) / 2.0, HEIGHT - 8, xLabel, "middle", "axis-label");
        svg.append(String.format(
                Locale.ROOT,
                "<text class=\"axis-label\" transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">%s"
                        + "</text>",
                TOP + (HEIGHT - TOP - BOTTOM) / 2.0,
                Html.escape(yLabel)));
    }

    /** Returns the range of the series and marks on one axis; {@code low > high} when there is none. */
    private double[] dataRange(boolean xAxis) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (ChartSeries s : series) {
            for (double v : xAxis ? s.x() : s.y()) {
                if (Double.isFinite(v)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        for (double[] mark : marks) {
            double v = xAxis ? mark[0] : mark[1];
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new double[] {min, max};
    }

    private static Axis axis(double[] range) {
        if (!Double.isFinite(range[0]) || !Double.isFinite(range[1])) {
            return Axis.of(0, 1);
        }
        if (range[0] == range[1]) {
            // A flat series: around its value, but never below zero for one at zero (a count that stayed 0).
            return range[0] == 0 ? Axis.of(0, 1) : Axis.of(range[0] - 1, range[1] + 1);
        }
        return Axis.of(range[0], range[1]);
    }

    static double px(Axis axis, double value) {
        return LEFT + (value - axis.min()) / (axis.max() - axis.min()) * (WIDTH - LEFT - RIGHT);
    }

    static double py(Axis axis, double value) {
        return HEIGHT - BOTTOM - (value - axis.min()) / (axis.max() - axis.min()) * (HEIGHT - TOP - BOTTOM);
    }

    static void text(StringBuilder svg, double x, double y, String text, String anchor, String cssClass) {
        svg.append(String.format(
                Locale.ROOT,
                "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
                cssClass,
                x,
                y,
                anchor,
                Html.escape(text)));
    }
}
