package dev.goodput.core.report.internal;

import static dev.goodput.core.report.internal.SvgChart.BOTTOM;
import static dev.goodput.core.report.internal.SvgChart.HEIGHT;
import static dev.goodput.core.report.internal.SvgChart.LEFT;
import static dev.goodput.core.report.internal.SvgChart.RIGHT;
import static dev.goodput.core.report.internal.SvgChart.TOP;
import static dev.goodput.core.report.internal.SvgChart.WIDTH;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The dashed reference lines of a chart on one axis, such as an objective's bound: vertical lines at values of the
 * x-axis, or horizontal lines at values of the y-axis. The axis is scaled to the data, not to the lines: a line
 * widens it only when it lies within one data span beyond the data, so that the data keep at least half the chart.
 * A line beyond the axis is drawn as a marker at the chart's edge, pointing where it lies, with its label.
 */
final class ReferenceLines {

    private final boolean vertical;
    private final List<Double> values = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();

    /** Lines at values of the x-axis ({@code vertical}) or of the y-axis. */
    ReferenceLines(boolean vertical) {
        this.vertical = vertical;
    }

    void add(String label, double value) {
        values.add(value);
        labels.add(label);
    }

    int size() {
        return values.size();
    }

    /**
     * Returns the data's range widened to the lines close to it: within one data span of it (when the data have no
     * span, within their magnitude). Without data ({@code low > high}), the lines alone make the range.
     */
    double[] widen(double low, double high) {
        boolean data = low <= high;
        double span = high - low > 0 ? high - low : Math.max(1, Math.abs(high));
        double min = low;
        double max = high;
        for (double value : values) {
            if (!Double.isFinite(value)) {
                continue;
            }
            if (!data || (value >= low - span && value <= high + span)) {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        return new double[] {min, max};
    }

    /** Draws every line on the axis, or its marker at the edge when it lies beyond. */
    void draw(StringBuilder svg, Axis axis) {
        for (int i = 0; i < values.size(); i++) {
            double value = values.get(i);
            String label = labels.get(i);
            if (value > axis.max() + axis.step() * 1e-9) {
                beyond(svg, i, label, true);
            } else if (value < axis.min() - axis.step() * 1e-9) {
                beyond(svg, i, label, false);
            } else if (vertical) {
                double x = SvgChart.px(axis, value);
                svg.append(String.format(
                        Locale.ROOT,
                        "<line class=\"bound\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#555\""
                                + " stroke-dasharray=\"6 4\"/>",
                        x,
                        x,
                        TOP,
                        HEIGHT - BOTTOM));
                // Low on the chart, left of the line (right of one near the left edge): where a distribution's
                // curve has mostly risen past.
                boolean nearLeft = x < LEFT + (WIDTH - LEFT - RIGHT) * 0.4;
                SvgChart.text(
                        svg,
                        nearLeft ? x + 4 : x - 4,
                        HEIGHT - BOTTOM - 6 - 14 * i,
                        label,
                        nearLeft ? "start" : "end",
                        "bound-label");
            } else {
                double y = SvgChart.py(axis, value);
                svg.append(String.format(
                        Locale.ROOT,
                        "<line class=\"bound\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#555\""
                                + " stroke-dasharray=\"6 4\"/>",
                        LEFT,
                        WIDTH - RIGHT,
                        y,
                        y));
                SvgChart.text(svg, WIDTH - RIGHT + 4, y + 4, label, "start", "bound-label");
            }
        }
    }

    /** Draws a marker at the edge a line lies beyond: a triangle pointing at it, and its label with an arrow. */
    private void beyond(StringBuilder svg, int i, String label, boolean high) {
        String points;
        String text;
        double textX;
        double textY;
        String anchor;
        if (vertical) {
            // Where a distribution's curve is not: bottom right (it has risen), top left (it has not yet).
            double x = high ? WIDTH - RIGHT : LEFT;
            double y = high ? HEIGHT - BOTTOM - 10 - 14 * i : TOP + 10 + 14 * i;
            double d = high ? -9 : 9;
            points = String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f %.1f,%.1f", x + d, y - 5, x, y, x + d, y + 5);
            text = high ? label + " \u2192" : "\u2190 " + label;
            textX = x + d + (high ? -3 : 3);
            textY = y + 4;
            anchor = high ? "end" : "start";
        } else {
            double x = WIDTH - RIGHT;
            double y = high ? TOP : HEIGHT - BOTTOM;
            double d = high ? 9 : -9;
            points = String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f %.1f,%.1f", x - 5, y + d, x, y, x + 5, y + d);
            text = (high ? "\u2191 " : "\u2193 ") + label;
            textX = x + 8;
            textY = high ? y + 4 + 14 * i : y - 14 * i;
            anchor = "start";
        }
        svg.append("<polygon class=\"bound off-scale\" points=\"")
                .append(points)
                .append("\" fill=\"#555\"><title>")
                .append(Html.escape(label + " lies beyond the axis"))
                .append("</title></polygon>");
        SvgChart.text(svg, textX, textY, text, anchor, "bound-label off-scale");
    }
}
