package dev.goodput.core.e2e;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;

/**
 * Runs three requests against each base URL given and prints one line per URL: {@code <url> <successes>
 * <failures> <first failure's reason>}. Started by {@link TlsEndToEndTest} in a JVM of its own, whose default
 * trust store (the system property {@code javax.net.ssl.trustStore}) holds the test's self-signed certificate:
 * the JDK reads that property once per JVM, so a test JVM that has already made an SSL context cannot take it.
 */
public final class TlsRunInAnotherJvm {

    private TlsRunInAnotherJvm() {}

    public static void main(String[] baseUrls) {
        for (String baseUrl : baseUrls) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(baseUrl, "m"))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(4)
                            .outputTokens(3)
                            .build())
                    .load(Load.concurrency(1).requests(3))
                    .preflight(false)
                    .run();
            String reason = result.records().stream()
                    .filter(record -> record.outcome() != Outcome.SUCCESS)
                    .map(record -> record.errorDetail())
                    .findFirst()
                    .orElse("-");
            System.out.println(baseUrl + " " + result.accounting().count(Outcome.SUCCESS) + " "
                    + result.accounting().count(Outcome.FAILED) + " " + reason);
        }
    }
}
