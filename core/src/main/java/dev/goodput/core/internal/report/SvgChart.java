package dev.goodput.core.internal.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a line or scatter chart as inline SVG, with axes, nice ticks, a legend, horizontal reference lines (an
 * objective's bound) and labelled marks (the max-goodput point). No script, no fonts, no network.
 */
public final class SvgChart {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 340;
    private static final int LEFT = 64;
    private static final int RIGHT = 150;
    private static final int TOP = 30;
    private static final int BOTTOM = 46;
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

    private final String id;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private final List<double[]> lineValues = new ArrayList<>();
    private final List<String> lineLabels = new ArrayList<>();
    private final List<double[]> verticals = new ArrayList<>();
    private final List<String> verticalLabels = new ArrayList<>();
    private final List<double[]> marks = new ArrayList<>();
    private final List<String> markLabels = new ArrayList<>();

    private record Series(String name, double[] x, double[] y, boolean dots, boolean step) {}

    public SvgChart(String id, String title, String xLabel, String yLabel) {
        this.id = id;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Adds a line through the points, in the order given. */
    public SvgChart line(String name, double[] x, double[] y) {
        series.add(new Series(name, x, y, false, false));
        return this;
    }

    /** Adds a line with a dot at every point. */
    public SvgChart lineWithDots(String name, double[] x, double[] y) {
        series.add(new Series(name, x, y, true, false));
        return this;
    }

    /** Adds a step line (value held until the next point). */
    public SvgChart steps(String name, double[] x, double[] y) {
        series.add(new Series(name, x, y, false, true));
        return this;
    }

    /** Adds unconnected dots. */
    public SvgChart dots(String name, double[] x, double[] y) {
        series.add(new Series(name, x, y, true, true));
        return this;
    }

    /** Adds a dashed horizontal line across the chart, for example an objective's bound. */
    public SvgChart horizontal(String label, double y) {
        lineValues.add(new double[] {y});
        lineLabels.add(label);
        return this;
    }

    /** Adds a dashed vertical line, for example an objective's bound on a distribution's value axis. */
    public SvgChart vertical(String label, double x) {
        verticals.add(new double[] {x});
        verticalLabels.add(label);
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
        double[] xr = range(true);
        double[] yr = range(false);
        Axis xAxis = Axis.of(xr[0], xr[1]);
        Axis yAxis = Axis.of(Math.min(0, yr[0]), yr[1]);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg class=\"chart\" id=\"%s\" data-series=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                        + " height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">",
                Html.escape(id),
                series.size(),
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT,
                Html.escape(title)));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>");
        text(svg, WIDTH / 2.0 - RIGHT / 2.0, 18, title, "middle", "title");
        grid(svg, xAxis, yAxis);
        for (int i = 0; i < lineValues.size(); i++) {
            double y = py(yAxis, lineValues.get(i)[0]);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line class=\"bound\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#555\""
                            + " stroke-dasharray=\"6 4\"/>",
                    LEFT,
                    WIDTH - RIGHT,
                    y,
                    y));
            text(svg, WIDTH - RIGHT + 4, y + 4, lineLabels.get(i), "start", "bound-label");
        }
        for (int i = 0; i < verticals.size(); i++) {
            double x = px(xAxis, verticals.get(i)[0]);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line class=\"bound\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#555\""
                            + " stroke-dasharray=\"6 4\"/>",
                    x,
                    x,
                    TOP,
                    HEIGHT - BOTTOM));
            text(svg, x - 4, TOP + 12 + 14 * i, verticalLabels.get(i), "end", "bound-label");
        }
        for (int s = 0; s < series.size(); s++) {
            drawSeries(svg, series.get(s), COLORS[s % COLORS.length], xAxis, yAxis, s);
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

    private void drawSeries(StringBuilder svg, Series s, String color, Axis xAxis, Axis yAxis, int index) {
        StringBuilder path = new StringBuilder();
        double lastY = Double.NaN;
        for (int i = 0; i < s.x.length; i++) {
            if (!Double.isFinite(s.x[i]) || !Double.isFinite(s.y[i])) {
                continue;
            }
            double x = px(xAxis, s.x[i]);
            double y = py(yAxis, s.y[i]);
            if (path.length() == 0) {
                path.append(String.format(Locale.ROOT, "M%.1f %.1f", x, y));
            } else if (s.step) {
                path.append(String.format(Locale.ROOT, " L%.1f %.1f L%.1f %.1f", x, lastY, x, y));
            } else {
                path.append(String.format(Locale.ROOT, " L%.1f %.1f", x, y));
            }
            lastY = y;
            if (s.dots) {
                svg.append(String.format(
                        Locale.ROOT,
                        "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s: %s, %s</title>"
                                + "</circle>",
                        x,
                        y,
                        color,
                        Html.escape(s.name),
                        Axis.label(s.x[i]),
                        Axis.label(s.y[i])));
            }
        }
        boolean connected = !(s.dots && s.step);
        if (connected && path.length() > 0) {
            svg.append("<path class=\"series\" d=\"")
                    .append(path)
                    .append("\" fill=\"none\" stroke=\"")
                    .append(color)
                    .append("\" stroke-width=\"2\"/>");
        }
        double legendY = TOP + 14 + 18 * (index + lineValues.size() + 1);
        svg.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"4\" fill=\"%s\"/>",
                WIDTH - RIGHT + 8,
                legendY - 4,
                color));
        text(svg, WIDTH - RIGHT + 24, legendY, s.name, "start", "legend");
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

    private double[] range(boolean xAxis) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double v : xAxis ? s.x : s.y) {
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
        if (xAxis) {
            for (double[] line : verticals) {
                min = Math.min(min, line[0]);
                max = Math.max(max, line[0]);
            }
        }
        if (!xAxis) {
            for (double[] line : lineValues) {
                min = Math.min(min, line[0]);
                max = Math.max(max, line[0]);
            }
        }
        if (!Double.isFinite(min)) {
            return new double[] {0, 1};
        }
        return min == max ? new double[] {min - 1, max + 1} : new double[] {min, max};
    }

    private static double px(Axis axis, double value) {
        return LEFT + (value - axis.min()) / (axis.max() - axis.min()) * (WIDTH - LEFT - RIGHT);
    }

    private static double py(Axis axis, double value) {
        return HEIGHT - BOTTOM - (value - axis.min()) / (axis.max() - axis.min()) * (HEIGHT - TOP - BOTTOM);
    }

    private static void text(StringBuilder svg, double x, double y, String text, String anchor, String cssClass) {
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
