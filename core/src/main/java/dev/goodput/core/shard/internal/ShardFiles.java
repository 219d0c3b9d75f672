package dev.goodput.core.shard.internal;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.ChunkTimeline;
import dev.goodput.core.result.internal.RunSnapshot;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A shard's output directory: everything its run measured, in a form that merges exactly.
 *
 * <ul>
 *   <li>{@code shard.json}: the {@link ShardHeader};
 *   <li>{@code requests.jsonl.gz}: one {@link RequestRecord} per line, every instant in nanoseconds of the run's
 *       shared time axis (the agreed start is 0), so records of all shards pool as one generator's would;
 *   <li>{@code histograms.hlog}: the pooled gap histograms (ICL, ITL, of the whole shard and of each workload
 *       class) and the client's pauses, in HdrHistogram's log format, whose compressed histograms decode to the
 *       very counts that were recorded;
 *   <li>{@code chunks.tsv.gz}: content events per millisecond ({@link ChunkTimeline}), for the peak output rate.
 * </ul>
 *
 * <p>Why not summaries: percentiles of shards cannot be combined into the percentile of the whole, and an
 * objective's confidence interval needs every sample. Records are about 0.4 KB each before compression.
 */
final class ShardFiles {

    /** The format version this code writes and reads. */
    static final int FORMAT = 1;

    static final String HEADER = "shard.json";
    static final String REQUESTS = "requests.jsonl.gz";
    static final String HISTOGRAMS = "histograms.hlog";
    static final String CHUNKS = "chunks.tsv.gz";

    private static final String ICL = "icl";
    private static final String ITL = "itl";
    private static final String PAUSES = "pauses";
    private static final String CLASS_PREFIX = "class.";

    // Records are written from their fields alone: their derived accessors (isSuccess(), ttftNanos(), ...) are
    // not data, and a reader must not meet them as unknown properties.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private ShardFiles() {}

    /** Everything one shard's directory holds. */
    record Output(Path directory, ShardHeader header, RunSnapshot snapshot, ChunkTimeline chunks) {}

    /** Writes a shard's output into {@code directory}, which must not hold another output already. */
    static void write(Path directory, ShardHeader header, RunSnapshot snapshot, ChunkTimeline chunks) {
        try {
            Files.createDirectories(directory);
            refuseWritten(directory);
            try (BufferedWriter out = gzipWriter(directory.resolve(REQUESTS))) {
                for (RequestRecord record : snapshot.records()) {
                    out.write(JSON.writeValueAsString(record));
                    out.write('\n');
                }
            }
            writeHistograms(directory.resolve(HISTOGRAMS), snapshot);
            try (BufferedWriter out = gzipWriter(directory.resolve(CHUNKS))) {
                out.write("earliest_send_nanos\t" + chunks.earliestSendNanos() + "\n");
                for (Map.Entry<Long, Integer> count : chunks.counts().entrySet()) {
                    out.write(count.getKey() + "\t" + count.getValue() + "\n");
                }
            }
            // The header last: a directory with a header is a complete output.
            Files.writeString(
                    directory.resolve(HEADER),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(header));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the shard output to " + directory + ": " + e, e);
        }
    }

    /**
     * Refuses a directory that already holds a finished output, before a shard sends anything: the merge must not
     * meet an earlier run's shard (a directory with files but no header is an unfinished shard, overwritten).
     */
    static void refuseWritten(Path directory) {
        if (Files.exists(directory.resolve(HEADER))) {
            throw new IllegalStateException("shard output directory " + directory + " already holds a shard's output ("
                    + HEADER + "); give each run its own directory or remove the old one");
        }
    }

    private static void writeHistograms(Path file, RunSnapshot snapshot) throws IOException {
        try (OutputStream stream = Files.newOutputStream(file);
                PrintStream print = new PrintStream(stream, false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter log = new HistogramLogWriter(print);
            log.outputLogFormatVersion();
            log.outputLegend();
            writeTagged(log, ICL, snapshot.icl());
            writeTagged(log, ITL, snapshot.itl());
            if (snapshot.clientPauses() != null) {
                writeTagged(log, PAUSES, snapshot.clientPauses());
            }
            for (Map.Entry<String, RunSnapshot.Gaps> gaps : snapshot.classGaps().entrySet()) {
                writeTagged(
                        log,
                        CLASS_PREFIX + gaps.getKey() + "." + ICL,
                        gaps.getValue().icl());
                writeTagged(
                        log,
                        CLASS_PREFIX + gaps.getKey() + "." + ITL,
                        gaps.getValue().itl());
            }
            print.flush();
            if (print.checkError()) {
                throw new IOException("writing " + file + " failed");
            }
        }
    }

    private static void writeTagged(HistogramLogWriter log, String tag, Histogram histogram) {
        Histogram tagged = histogram.copy();
        tagged.setTag(tag);
        tagged.setStartTimeStamp(0);
        tagged.setEndTimeStamp(0);
        log.outputIntervalHistogram(tagged);
    }

    /** Reads a shard's output back; the error names the directory and the file that is missing or damaged. */
    static Output read(Path directory) {
        Path headerFile = directory.resolve(HEADER);
        try {
            ShardHeader header = JSON.readValue(Files.readString(headerFile), ShardHeader.class);
            if (header.format() != FORMAT) {
                throw new IllegalStateException(headerFile + " has format " + header.format() + "; this Goodput reads "
                        + "format " + FORMAT + " (write and merge shards with the same Goodput version)");
            }
            List<RequestRecord> records = readRecords(directory.resolve(REQUESTS));
            if (records.size() != header.records()) {
                throw new IllegalStateException(directory.resolve(REQUESTS) + " holds " + records.size()
                        + " records where " + HEADER + " says " + header.records() + ": the output is damaged");
            }
            Map<String, Histogram> histograms = readHistograms(directory.resolve(HISTOGRAMS));
            ChunkTimeline chunks = readChunks(directory.resolve(CHUNKS));
            RunSnapshot snapshot = new RunSnapshot(
                    records,
                    required(histograms, ICL, directory),
                    required(histograms, ITL, directory),
                    header.ignoreEosRequests(),
                    header.shorterThanAsked(),
                    chunks.peakPerSecond(),
                    histograms.get(PAUSES),
                    classGaps(histograms, directory));
            return new Output(directory, header, snapshot, chunks);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException(
                    "shard output " + directory + " has no "
                            + Path.of(e.getFile()).getFileName()
                            + ": the shard did not finish, or this is not a shard's output directory",
                    e);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("shard output " + directory + " is damaged: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the shard output " + directory + ": " + e, e);
        }
    }

    private static List<RequestRecord> readRecords(Path file) throws IOException {
        List<RequestRecord> records = new ArrayList<>();
        try (BufferedReader in = gzipReader(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    records.add(JSON.readValue(line, RequestRecord.class));
                }
            }
        }
        return records;
    }

    private static Map<String, Histogram> readHistograms(Path file) throws IOException {
        Map<String, Histogram> histograms = new TreeMap<>();
        HistogramLogReader reader = new HistogramLogReader(file.toFile());
        try {
            for (EncodableHistogram next = reader.nextIntervalHistogram();
                    next != null;
                    next = reader.nextIntervalHistogram()) {
                histograms.put(next.getTag(), (Histogram) next);
            }
        } finally {
            reader.close();
        }
        return histograms;
    }

    private static Histogram required(Map<String, Histogram> histograms, String tag, Path directory) {
        Histogram histogram = histograms.get(tag);
        if (histogram == null) {
            throw new IllegalStateException(
                    "shard output " + directory + " has no '" + tag + "' histogram in " + HISTOGRAMS);
        }
        return histogram;
    }

    private static Map<String, RunSnapshot.Gaps> classGaps(Map<String, Histogram> histograms, Path directory) {
        Map<String, RunSnapshot.Gaps> gaps = new TreeMap<>();
        histograms.forEach((tag, histogram) -> {
            if (tag.startsWith(CLASS_PREFIX) && tag.endsWith("." + ICL)) {
                String name = tag.substring(CLASS_PREFIX.length(), tag.length() - ICL.length() - 1);
                gaps.put(
                        name,
                        new RunSnapshot.Gaps(
                                histogram, required(histograms, CLASS_PREFIX + name + "." + ITL, directory)));
            }
        });
        return gaps;
    }

    private static ChunkTimeline readChunks(Path file) throws IOException {
        Map<Long, Integer> counts = new TreeMap<>();
        long earliest = Long.MAX_VALUE;
        try (BufferedReader in = gzipReader(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] fields = line.split("\t");
                if (fields.length != 2) {
                    throw new IOException(file + ": a line of " + fields.length + " fields: '" + line + "'");
                }
                if (fields[0].equals("earliest_send_nanos")) {
                    earliest = Long.parseLong(fields[1]);
                } else {
                    counts.put(Long.parseLong(fields[0]), Integer.parseInt(fields[1]));
                }
            }
        } catch (NumberFormatException e) {
            throw new IOException(file + " is damaged: " + e.getMessage(), e);
        }
        return new ChunkTimeline(earliest, counts);
    }

    private static BufferedWriter gzipWriter(Path file) throws IOException {
        return new BufferedWriter(
                new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)), StandardCharsets.UTF_8));
    }

    private static BufferedReader gzipReader(Path file) throws IOException {
        return new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8));
    }
}
