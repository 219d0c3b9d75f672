package dev.goodput.core.internal.driver;

import dev.goodput.core.RequestRecord;
import dev.goodput.core.internal.client.InFlightRequest;
import dev.goodput.core.internal.client.Transport;
import dev.goodput.core.internal.result.RunRecorder;
import dev.goodput.core.workload.ConversationWorkload;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs a fixed number of virtual users, each sending one request at a time: a user's next request is intended
 * to start when its previous one ended plus the think time. All users start at once.
 *
 * <p>With a {@link ConversationWorkload}, each user runs one session at a time, turn after turn, waiting the
 * conversation's think time between turns and the profile's think time between sessions.
 */
public final class ClosedLoopDriver extends LoadDriver {

    private final ConversationWorkload conversation;
    // Guarded by this.
    private int retiredUsers;
    private final Map<InFlightRequest, Integer> userOf = new HashMap<>();
    private final long[] sessionOfUser;
    private final int[] turnOfUser;
    private long nextSession;

    public ClosedLoopDriver(TaskScheduler scheduler, Transport transport, RunOptions options, RunRecorder recorder) {
        super(scheduler, transport, options, recorder);
        this.conversation = options.workload() instanceof ConversationWorkload c ? c : null;
        this.sessionOfUser = new long[profile.concurrency()];
        this.turnOfUser = new int[profile.concurrency()];
    }

    @Override
    protected void begin(long startNanos) {
        for (int user = 0; user < profile.concurrency(); user++) {
            sessionOfUser[user] = nextSession++;
            scheduleUser(user, startNanos);
        }
        if (profile.duration() != null) {
            // The drain period starts when the load period ends, even if a user is stuck in a long request.
            long end = startNanos + profile.duration().toNanos();
            scheduler.schedule(end, () -> {
                synchronized (this) {
                    creationFinished();
                }
            });
        }
    }

    @Override
    protected long loadEndOffsetNanos() {
        return profile.duration() == null ? Long.MAX_VALUE : profile.duration().toNanos();
    }

    @Override
    protected void afterEnd(InFlightRequest request, RequestRecord record) {
        int user = userOf.remove(request);
        long pause = profile.thinkTime().toNanos();
        if (conversation != null) {
            turnOfUser[user]++;
            if (turnOfUser[user] == conversation.turns()) {
                turnOfUser[user] = 0;
                sessionOfUser[user] = nextSession++;
            } else {
                pause = conversation.thinkTime().toNanos();
            }
        }
        // Scheduled rather than sent inline, so a server that fails every request at once cannot recurse.
        scheduleUser(user, record.endNanos() + pause);
    }

    private void scheduleUser(int user, long intendedNanos) {
        scheduler.schedule(intendedNanos, () -> send(user, intendedNanos));
    }

    private synchronized void send(int user, long intendedNanos) {
        if (!mayCreate(intendedNanos)) {
            retiredUsers++;
            if (retiredUsers == profile.concurrency()) {
                creationFinished();
            }
            return;
        }
        InFlightRequest request = conversation == null
                ? create(intendedNanos)
                : create(intendedNanos, index -> conversation.request(index, sessionOfUser[user], turnOfUser[user]));
        userOf.put(request, user);
        dispatch(request, false);
        if (profile.requests() > 0 && createdCount() == profile.requests()) {
            creationFinished();
        }
    }
}
