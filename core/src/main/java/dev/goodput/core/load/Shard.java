package dev.goodput.core.load;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import org.apiguardian.api.API;

/**
 * One load generator's share of a run split across {@code count} of them. Shard {@code index} sends the requests
 * whose position in the run's schedule is {@code index}, {@code index + count}, {@code index + 2 count}, ...: of an
 * open loop every {@code count}-th arrival of the same seeded schedule, of a closed loop every {@code count}-th
 * virtual user (and every {@code count}-th request number). Together the shards offer exactly the configured load,
 * and each request keeps the position, and so the prompt, workload class and phase, a single generator would have
 * given it.
 *
 * @param index this shard's index, from 0 to {@code count - 1}
 * @param count how many shards share the run, at least 1
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record Shard(int index, int count) {

    /** The whole run on one generator. */
    public static final Shard WHOLE = new Shard(0, 1);

    public Shard {
        if (count < 1) {
            throw InvalidSettingException.of("shard count", count, "must be at least 1");
        }
        if (index < 0 || index >= count) {
            throw InvalidSettingException.of(
                    "shard index", index, "must be from 0 to " + (count - 1) + " for a shard count of " + count);
        }
    }

    /** Returns shard {@code index} of {@code count}. */
    public static Shard of(int index, int count) {
        return new Shard(index, count);
    }

    /** Returns whether this is the whole run ({@code count == 1}). */
    public boolean isWhole() {
        return count == 1;
    }

    /** Returns the run-wide position of this shard's {@code local}-th request (both from 0). */
    public long position(long local) {
        return local * count + index;
    }

    /** Returns whether the request at run-wide {@code position} is this shard's. */
    public boolean owns(long position) {
        return Math.floorMod(position, count) == index;
    }

    /**
     * Returns this shard's share of {@code total} things dealt out in turn (requests, virtual users, concurrency
     * slots): {@code ceil((total - index) / count)}, so the shares of all shards add up to {@code total}.
     */
    public long shareOf(long total) {
        return total <= index ? 0 : (total - index + count - 1) / count;
    }

    @Override
    public String toString() {
        return "shard " + index + " of " + count;
    }
}
