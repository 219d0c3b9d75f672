package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/** A dataset, trace or tokenizer file that is missing or malformed: names the file, the line and the reason. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class WorkloadFileException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long line;

    /**
     * @param file the file
     * @param line the 1-based line, or 0 when the problem is the whole file
     * @param reason what is wrong, naming the field and the value
     */
    public WorkloadFileException(Path file, long line, String reason) {
        super(file + (line > 0 ? ":" + line : "") + ": " + reason);
        this.file = file;
        this.line = line;
    }

    /** Returns the file. */
    public Path file() {
        return file;
    }

    /** Returns the 1-based line, or 0 when the problem is the whole file. */
    public long line() {
        return line;
    }
}
