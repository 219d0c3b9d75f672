package dev.goodput.core.report.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The legend of an {@link SvgChart}, in the column right of its plot: an entry per series, each a swatch and its
 * name broken into lines that fit the column. SVG text does not wrap, and the column is a fixed width, so a long
 * name ("Preemptions per second") ran past the chart's edge and was cut. The width of text is estimated from its
 * characters at the charts' 11 px font, on the generous side (of DejaVu Sans, the wide sans-serif headless Chromium
 * falls back to on Linux): a line may end early, never late.
 */
final class ChartLegend {

    /** The legend's column: from its text's start to the chart's edge, less a margin. */
    static final double TEXT_WIDTH = SvgChart.RIGHT - 24 - 6;

    /** From one entry's first baseline to the next entry's. */
    static final int ROW = 18;

    /** From one line of an entry to the next. */
    static final int LINE_HEIGHT = 13;

    /** The charts' text size, in pixels (the {@code .chart text} style of the pages). */
    static final double FONT_PIXELS = 11;

    private ChartLegend() {}

    /** How a legend entry shows its series. */
    enum Swatch {
        LINE,
        BAND,
        DOT
    }

    /**
     * Draws a legend entry whose first line's baseline is {@code y}: the swatch and the text, in as many lines as
     * the column needs; returns the next entry's baseline.
     */
    static double entry(StringBuilder svg, double y, Swatch swatch, String color, String text) {
        int left = SvgChart.WIDTH - SvgChart.RIGHT + 8;
        svg.append(
                switch (swatch) {
                    case LINE ->
                        String.format(
                                Locale.ROOT,
                                "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"4\" fill=\"%s\"/>",
                                left,
                                y - 4,
                                color);
                    case BAND ->
                        String.format(
                                Locale.ROOT,
                                "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\" fill-opacity=\"0.2\"/>",
                                left,
                                y - 9,
                                color);
                    case DOT ->
                        String.format(
                                Locale.ROOT,
                                "<circle cx=\"%d\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
                                left + 6,
                                y - 4,
                                color);
                });
        List<String> lines = lines(text, TEXT_WIDTH);
        double x = SvgChart.WIDTH - SvgChart.RIGHT + 24;
        if (lines.size() == 1) {
            SvgChart.text(svg, x, y, text, "start", "legend");
            return y + ROW;
        }
        svg.append(String.format(
                Locale.ROOT, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\">", x, y));
        for (int i = 0; i < lines.size(); i++) {
            svg.append(String.format(
                    Locale.ROOT,
                    "<tspan x=\"%.1f\" dy=\"%d\">%s</tspan>",
                    x,
                    i == 0 ? 0 : LINE_HEIGHT,
                    Html.escape(lines.get(i))));
        }
        svg.append("<title>").append(Html.escape(text)).append("</title></text>");
        return y + ROW + LINE_HEIGHT * (lines.size() - 1);
    }

    /** Returns the text in lines, each at most {@code width} pixels wide; a word too wide alone is broken. */
    static List<String> lines(String text, double width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.strip().split("\\s+")) {
            String candidate = line.length() == 0 ? word : line + " " + word;
            if (width(candidate) <= width) {
                line.setLength(0);
                line.append(candidate);
                continue;
            }
            if (line.length() > 0) {
                lines.add(line.toString());
                line.setLength(0);
            }
            for (int i = 0; i < word.length(); i++) {
                if (line.length() > 0 && width(line.toString() + word.charAt(i)) > width) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                line.append(word.charAt(i));
            }
        }
        if (line.length() > 0 || lines.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** Returns an upper estimate of the text's width in pixels. */
    static double width(String text) {
        double ems = 0;
        for (int i = 0; i < text.length(); i++) {
            ems += ems(text.charAt(i));
        }
        return ems * FONT_PIXELS;
    }

    /** A character's advance in ems, rounded up from DejaVu Sans's. */
    private static double ems(char c) {
        if ("iljI.,:;|!'".indexOf(c) >= 0) {
            return 0.32;
        }
        if ("frt ()[]-".indexOf(c) >= 0) {
            return 0.42;
        }
        if ("mwMW%".indexOf(c) >= 0) {
            return 1.0;
        }
        if (Character.isUpperCase(c)) {
            return 0.78;
        }
        return 0.66;
    }
}
