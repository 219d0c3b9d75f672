package dev.goodput.core.bench;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.testing.SseText;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds Goodput's TTFT from send against a raw-socket client's on the same replayed stream (issue 15): a loopback
 * server reads each request whole, waits exactly {@value #PLANTED_MILLIS} ms, then writes one token and ends the
 * stream. The raw client stamps just before writing its request bytes and just after reading the token's bytes,
 * so its figure is the planted delay plus the loopback and the server's reading; Goodput's should be within
 * 0.3 ms of it. It also splits each client's excess over the planted delay in two, from the replay server's own
 * instants: send stamp to the server's having read the request, and the server's write of the token to the client's
 * receipt stamp. Goodput's first run here is preceded, as every JVM's first run with a transport is, by the engine's
 * warm-up against a loopback server of its own ({@code LoopbackWarmUp}), so its rounds are what a gate's first
 * requests see. Not a test: run it by hand and read the figures.
 *
 * <p>{@code ./mvnw -q -pl core -am test-compile} then
 * {@code java -cp core/target/test-classes:core/target/classes:<deps> dev.goodput.core.bench.SendStampBenchmark}
 * (the classpath as {@code .ci/bench-client} builds it).
 */
public final class SendStampBenchmark {

    private static final int PLANTED_MILLIS = 40;
    private static final int REQUESTS = 200;

    /** The replay server's instants per request, in order: request read whole, then its token's write begun. */
    private static final Queue<long[]> SERVER_SIDE = new ConcurrentLinkedQueue<>();

    public static void main(String[] args) throws Exception {
        byte[] stream = (SseText.contentChunk(" a", "length") + SseText.usageChunk(3, 1) + SseText.DONE)
                .getBytes(StandardCharsets.UTF_8);
        try (ServerSocket server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> accept(server, stream), "bench-replay-server");
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "http://127.0.0.1:" + server.getLocalPort();
            goodput(url, 40); // warm-up
            rawSocket(server.getLocalPort(), 40);
            for (int round = 1; round <= 2; round++) {
                SERVER_SIDE.clear();
                Stamps goodput = goodput(url, REQUESTS);
                Legs ourLegs = goodput.legs();
                SERVER_SIDE.clear();
                Stamps rawSocket = rawSocket(server.getLocalPort(), REQUESTS);
                Legs rawLegs = rawSocket.legs();
                double[] ours = goodput.ttftMillis();
                double[] raw = rawSocket.ttftMillis();
                System.out.printf(
                        Locale.ROOT,
                        "round %d: TTFT from send, median over %d requests: Goodput %.3f ms, raw socket %.3f ms,"
                                + " difference %.3f ms (p90 %.3f vs %.3f ms)%n",
                        round,
                        REQUESTS,
                        median(ours),
                        median(raw),
                        median(ours) - median(raw),
                        percentile(ours, 90),
                        percentile(raw, 90));
                System.out.printf(
                        Locale.ROOT,
                        "  medians: send stamp to the server's having read the request, Goodput %.3f ms, raw socket"
                                + " %.3f ms; the server's write of the token to its receipt stamp, Goodput %.3f ms, raw"
                                + " socket %.3f ms%n",
                        ourLegs.out,
                        rawLegs.out,
                        ourLegs.back,
                        rawLegs.back);
            }
        }
    }

    /** A client's send and first-token stamps of one run, in request order. */
    private record Stamps(long[] sent, long[] firstToken) {

        double[] ttftMillis() {
            double[] ttft = new double[sent.length];
            for (int i = 0; i < ttft.length; i++) {
                ttft[i] = (firstToken[i] - sent[i]) / 1e6;
            }
            return ttft;
        }

        /** The two legs of the TTFT from send outside the planted delay, from the replay server's log of the run. */
        Legs legs() {
            long[][] server = SERVER_SIDE.toArray(new long[0][]);
            if (server.length != sent.length) {
                throw new IllegalStateException(
                        "the replay server saw " + server.length + " requests, the client sent " + sent.length);
            }
            double[] out = new double[server.length];
            double[] back = new double[server.length];
            for (int i = 0; i < server.length; i++) {
                out[i] = (server[i][0] - sent[i]) / 1e6;
                back[i] = (firstToken[i] - server[i][1]) / 1e6;
            }
            return new Legs(median(out), median(back));
        }
    }

    /** Medians, in ms: send stamp to the server's having read the request; server's write to the receipt stamp. */
    private record Legs(double out, double back) {}

    private static Stamps goodput(String url, int requests) {
        RunResult result = Goodput.newRun(ServerEndpoint.of(url, "replay"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(3).outputTokens(1).build())
                .load(Load.concurrency(1).requests(requests))
                .preflight(false)
                .run();
        List<RequestRecord> records = result.records().stream()
                .filter(RequestRecord::isSuccess)
                .sorted(Comparator.comparingLong(RequestRecord::index))
                .toList();
        if (records.size() != requests) {
            throw new IllegalStateException((requests - records.size()) + " of " + requests + " requests failed");
        }
        return new Stamps(
                records.stream().mapToLong(RequestRecord::dispatchedNanos).toArray(),
                records.stream().mapToLong(RequestRecord::firstTokenNanos).toArray());
    }

    /** One keep-alive connection, one request at a time, stamped around the socket calls themselves. */
    private static Stamps rawSocket(int port, int requests) throws IOException {
        byte[] body = "{\"model\":\"replay\",\"prompt\":\"a b c\",\"max_tokens\":1,\"stream\":true}"
                .getBytes(StandardCharsets.UTF_8);
        byte[] request = ("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n" + new String(body, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8);
        Stamps stamps = new Stamps(new long[requests], new long[requests]);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            for (int i = 0; i < requests; i++) {
                long sent = System.nanoTime();
                out.write(request);
                out.flush();
                String seen = "";
                long firstToken = -1;
                while (!seen.contains("0\r\n\r\n")) {
                    int read = in.read(buffer);
                    if (read < 0) {
                        throw new IOException("the replay server closed the connection");
                    }
                    long now = System.nanoTime();
                    seen += new String(buffer, 0, read, StandardCharsets.ISO_8859_1);
                    if (firstToken < 0 && seen.contains("data: ")) {
                        firstToken = now;
                    }
                }
                stamps.sent()[i] = sent;
                stamps.firstToken()[i] = firstToken;
            }
        }
        return stamps;
    }

    private static void accept(ServerSocket server, byte[] stream) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> serve(socket, stream), "bench-replay-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Reads each request whole, waits the planted delay from that instant, then writes the stream at once. */
    private static void serve(Socket socket, byte[] stream) {
        try (socket) {
            socket.setTcpNoDelay(true);
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = socket.getOutputStream();
            String head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
            String chunk = Integer.toHexString(stream.length) + "\r\n";
            while (true) {
                String line = in.readLine();
                if (line == null) {
                    return;
                }
                // Goodput's run also asks for the server's metrics and version: answered alike, not logged.
                boolean streamRequest = line.startsWith("POST ");
                int contentLength = 0;
                while ((line = in.readLine()) != null && !line.isEmpty()) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        contentLength = Integer.parseInt(line.substring(15).trim());
                    }
                }
                for (int k = 0; k < contentLength; k++) {
                    in.read();
                }
                long read = System.nanoTime();
                long due = read + PLANTED_MILLIS * 1_000_000L;
                LockSupport.parkNanos(due - System.nanoTime() - 200_000);
                while (System.nanoTime() < due) {
                    Thread.onSpinWait();
                }
                if (streamRequest) {
                    SERVER_SIDE.add(new long[] {read, System.nanoTime()});
                }
                out.write((head + chunk).getBytes(StandardCharsets.ISO_8859_1));
                out.write(stream);
                out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException e) {
            // connection closed
        }
    }

    private static double median(double[] values) {
        return percentile(values, 50);
    }

    private static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.max(0, (int) Math.ceil(p / 100 * sorted.length) - 1)];
    }
}
