package dev.goodput.core.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/** A history file that cannot be read: its message names the file, the line and what is wrong with it. */
@API(status = EXPERIMENTAL, since = "0.2")
public final class HistoryFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    HistoryFileException(Path file, int line, String problem) {
        super("history file " + file + " line " + line + ": " + problem);
    }

    HistoryFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
