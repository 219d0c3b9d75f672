package dev.goodput.core.report.internal;

import java.util.List;
import java.util.Map;

/**
 * The parts every HTML report shares: escaping, the page with its inline style and script, tables. Text is always
 * escaped; only a {@link Markup} cell goes into a table as it is. The script
 * is small and bundled into the page: it marks the page rendered once every chart has drawn, highlights a
 * chart's series on hover, and needs no network.
 */
public final class Html {

    /** The name of the meta element that carries a page's verdict, read by the index page. */
    public static final String VERDICT_META = "goodput-verdict";

    private static final String STYLE = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;"
            + "color:#222;max-width:1400px}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:26px 0 8px;"
            + "border-bottom:1px solid #ddd;padding-bottom:4px}table{border-collapse:collapse;font-size:13px;"
            + "margin:6px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}th{background:#f5f5f5}"
            + "td:first-child,th:first-child{text-align:left}.MET,.PASSED,.IMPROVED{color:#0a7d28;font-weight:600}"
            + ".VIOLATED,.FAILED,.REGRESSED{color:#c0151b;font-weight:700}.INCONCLUSIVE,.NO-OBJECTIVES,.INVALID{"
            + "color:#a26b00;font-weight:600}h1 .FAILED{background:#c0151b;color:#fff;padding:0 6px;"
            + "border-radius:3px}.why{font-size:15px;margin:6px 0 10px}.charts{display:flex;flex-wrap:wrap;gap:12px}.chart{border:1px solid #ddd}"
            + ".chart text{font-size:11px;fill:#333}.chart .title{font-size:13px;font-weight:600}"
            + ".chart .series.dim{opacity:.15}.note{color:#555;font-size:13px}dl{display:grid;"
            + "grid-template-columns:max-content auto;gap:2px 14px;font-size:13px}dt{color:#666}dd{margin:0}"
            + ".reason{text-align:left;white-space:pre-wrap;overflow-wrap:anywhere;max-width:860px}"
            + "h3{font-size:14px;margin:14px 0 4px}";

    private static final String SCRIPT = "(function(){var charts=document.querySelectorAll('svg.chart');"
            + "charts.forEach(function(svg){var paths=svg.querySelectorAll('path.series');"
            + "paths.forEach(function(p){p.addEventListener('mouseenter',function(){paths.forEach(function(q){"
            + "if(q!==p){q.classList.add('dim');}});});p.addEventListener('mouseleave',function(){"
            + "paths.forEach(function(q){q.classList.remove('dim');});});});});"
            + "document.body.setAttribute('data-charts',String(charts.length));"
            + "document.body.setAttribute('data-rendered','true');})();";

    private Html() {}

    /** Escapes text for an HTML element or attribute. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** HTML made by the report itself, put into a table cell as it is; any other cell is escaped text. */
    public record Markup(String html) {}

    /** Marks HTML made by the report itself (a link, a coloured verdict) for a table cell. */
    public static Markup markup(String html) {
        return new Markup(html);
    }

    /** Undoes {@link #escape(String)}, for text read back from a page this class wrote. */
    public static String unescape(String html) {
        return html.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
    }

    /** Returns a whole page. */
    public static String page(String title, String verdict, String body) {
        return page(title, verdict, Map.of(), body);
    }

    /**
     * Returns a whole page whose head carries, besides its verdict, the given {@code <meta>} names and contents,
     * for the index page to read back.
     */
    public static String page(String title, String verdict, Map<String, String> meta, String body) {
        StringBuilder head = new StringBuilder();
        meta.forEach((name, content) -> head.append("<meta name=\"")
                .append(escape(name))
                .append("\" content=\"")
                .append(escape(content))
                .append("\">"));
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
                + "</title><meta name=\"" + VERDICT_META + "\" content=\"" + escape(verdict) + "\">" + head
                + "<meta name=\"viewport\" content=\"width=device-width\"><style>" + STYLE + "</style></head>"
                + "<body>" + body + "<script>" + SCRIPT + "</script></body></html>\n";
    }

    /** Returns a table with a header row; a {@link Markup} cell goes in as it is, any other is escaped text. */
    public static String table(List<String> header, List<? extends List<?>> rows) {
        StringBuilder table = new StringBuilder("<table><tr>");
        header.forEach(cell -> table.append("<th>").append(escape(cell)).append("</th>"));
        table.append("</tr>");
        for (List<?> row : rows) {
            table.append("<tr>");
            for (Object cell : row) {
                table.append("<td>")
                        .append(cell instanceof Markup markup ? markup.html() : escape(String.valueOf(cell)))
                        .append("</td>");
            }
            table.append("</tr>");
        }
        return table.append("</table>").toString();
    }

    /** Returns a definition list from alternating names and values. */
    public static String definitions(List<String> namesAndValues) {
        StringBuilder list = new StringBuilder("<dl>");
        for (int i = 0; i + 1 < namesAndValues.size(); i += 2) {
            list.append("<dt>")
                    .append(escape(namesAndValues.get(i)))
                    .append("</dt><dd>")
                    .append(escape(namesAndValues.get(i + 1)))
                    .append("</dd>");
        }
        return list.append("</dl>").toString();
    }

    /** Returns a verdict in its colour. */
    public static String verdict(String verdict) {
        return "<span class=\"" + escape(verdict) + "\">" + escape(verdict) + "</span>";
    }
}
