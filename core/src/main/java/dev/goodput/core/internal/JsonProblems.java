package dev.goodput.core.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Words a JSON parser's complaint in the terms of the file it read: what is wrong and at which column of the line
 * (or which line and column of a file read whole), without the parser's own location ({@code line: 1} of a single
 * line is not the file's line), class names or source description. The quoted text is redacted and cut.
 */
public final class JsonProblems {

    /** The parser's own location, "(start marker at [Source: ...])" or "(for Array starting at [Source: ...])". */
    private static final Pattern OWN_LOCATION = Pattern.compile("\\s*\\([^()]*\\[Source:.*", Pattern.DOTALL);

    private static final Pattern EXPECTED_VALUE =
            Pattern.compile("\\s*\\(JSON String, Number, Array, Object or token 'null', 'true' or 'false'\\)");
    private static final Pattern CHARACTER_CODE = Pattern.compile("\\(('.{1,2}') \\(code \\d+\\)\\)");
    private static final Pattern WAS_EXPECTING = Pattern.compile(":? *was expecting\\s*$");

    private JsonProblems() {}

    /** Describes a parse error of one line of a file: {@code unexpected character 'x' at column 3}. */
    public static String inLine(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        int column = location == null ? -1 : location.getColumnNr();
        return what(e) + (column > 0 ? " at column " + column : "");
    }

    /**
     * Describes an error reading a whole file at once: {@code ... at line 4, column 1}; a value of the wrong shape
     * for the type read names its field: {@code field trials[0].ttft does not have the expected shape}.
     */
    public static String inFile(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        int line = location == null ? -1 : location.getLineNr();
        int column = location == null ? -1 : location.getColumnNr();
        String where = line > 0 ? " at line " + line + (column > 0 ? ", column " + column : "") : "";
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            StringBuilder field = new StringBuilder();
            for (JsonMappingException.Reference reference : mapping.getPath()) {
                if (reference.getFieldName() != null) {
                    field.append(field.length() == 0 ? "" : ".").append(reference.getFieldName());
                } else if (reference.getIndex() >= 0) {
                    field.append('[').append(reference.getIndex()).append(']');
                }
            }
            return "field " + field + " does not have the expected shape" + where;
        }
        return what(e) + where;
    }

    private static String what(JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "not valid JSON" : e.getOriginalMessage();
        message = OWN_LOCATION.matcher(message).replaceAll("");
        message = EXPECTED_VALUE.matcher(message).replaceAll("");
        message = CHARACTER_CODE.matcher(message).replaceAll("$1");
        message = WAS_EXPECTING.matcher(message).replaceAll("");
        message = message.lines()
                .findFirst()
                .orElse("")
                .replace("end-of-input", "end of input")
                .strip();
        if (message.isEmpty()) {
            return "not valid JSON";
        }
        message = message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
        return SecretRedaction.none().cut(message, TextCut.JSON_PROBLEM);
    }
}
