package dev.goodput.core.workload.internal;

import dev.goodput.core.workload.WorkloadFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A comma-separated file with a header line; fields are unquoted, as in the Azure and BurstGPT traces. */
final class Csv {

    private Csv() {}

    static List<Row> read(Path file, String... required) {
        List<Lines.Line> lines = Lines.read(file);
        String[] header = lines.get(0).text().split(",", -1);
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            columns.put(header[i].trim(), i);
        }
        for (String name : required) {
            if (!columns.containsKey(name)) {
                throw new WorkloadFileException(
                        file,
                        lines.get(0).number(),
                        "the header has no column \"" + name + "\"; it has " + columns.keySet());
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Lines.Line line : lines.subList(1, lines.size())) {
            String[] cells = line.text().split(",", -1);
            if (cells.length != header.length) {
                throw line.error("has " + cells.length + " fields, the header " + header.length);
            }
            rows.add(new Row(line, columns, cells));
        }
        if (rows.isEmpty()) {
            throw new WorkloadFileException(file, 0, "holds a header but no row");
        }
        return rows;
    }

    record Row(Lines.Line source, Map<String, Integer> columns, String[] cells) {

        long line() {
            return source.number();
        }

        String get(String column) {
            return cells[columns.get(column)];
        }

        double number(String column) {
            try {
                double value = Double.parseDouble(get(column).trim());
                if (value >= 0 && !Double.isInfinite(value)) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // Reported below.
            }
            throw source.error(column + " must be a number of at least 0, was \"" + get(column) + "\"");
        }

        int nonNegativeInt(String column) {
            try {
                int value = Integer.parseInt(get(column).trim());
                if (value >= 0) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // Reported below.
            }
            throw source.error(column + " must be an integer of at least 0, was \"" + get(column) + "\"");
        }

        int positiveInt(String column) {
            int value = nonNegativeInt(column);
            if (value < 1) {
                throw source.error(column + " must be at least 1, was " + Lines.abbreviate(String.valueOf(value)));
            }
            return value;
        }
    }
}
