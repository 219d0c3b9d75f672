package dev.goodput.core.shard.internal;

import dev.goodput.core.RunSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Which run a shard is a share of: a digest of what fixes the schedule and the requests, the load and the workload
 * as described. Shards of one run (and the merge) compute the same identity from the same test; a shard started
 * with another load scale, seed or workload does not, and the barrier and the merge refuse to mix them. The
 * objectives, server and reports are left out: the merge judges with its own.
 */
final class RunIdentity {

    private RunIdentity() {}

    static String of(RunSpec spec) {
        String described = "load " + spec.load().describe() + "\nworkload "
                + spec.workload().describe();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(described.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
