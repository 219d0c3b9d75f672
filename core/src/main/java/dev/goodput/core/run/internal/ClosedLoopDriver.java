package dev.goodput.core.run.internal;

import dev.goodput.core.load.Arrivals;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.InFlightRequest;
import dev.goodput.core.workload.SessionWorkload;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs a fixed number of virtual users, each sending one request at a time: a user's next request is intended
 * to start when its previous one ended plus the think time. All users start at once. Without think time, and with a
 * transport that can start requests cheaply on its reading threads, the next request is created and sent by the
 * thread that saw the previous one end, not handed to the scheduler's thread.
 *
 * <p>With a {@link SessionWorkload} (synthetic or replayed conversations), each user runs one session at a time,
 * turn after turn up to that session's own number of turns, waiting the workload's think time between turns and
 * the profile's think time between sessions.
 *
 * <p>A shard runs every {@code count}-th of the users, and numbers its sessions so that no two shards replay the
 * same one.
 */
public final class ClosedLoopDriver extends LoadDriver {

    private final SessionWorkload conversation;
    private final Arrivals.ClosedLoop users;
    private final int userCount;
    // Guarded by this.
    private int retiredUsers;
    private final Map<InFlightRequest, Integer> userOf = new HashMap<>();
    private final long[] sessionOfUser;
    private final int[] turnOfUser;
    private long nextSession;

    public ClosedLoopDriver(TaskScheduler scheduler, Transport transport, RunOptions options, RunRecorder recorder) {
        super(scheduler, transport, options, recorder);
        this.conversation = options.workload() instanceof SessionWorkload s ? s : null;
        this.users = (Arrivals.ClosedLoop) profile.arrivals();
        this.userCount = Math.toIntExact(options.shard().shareOf(users.users()));
        this.sessionOfUser = new long[userCount];
        this.turnOfUser = new int[userCount];
    }

    @Override
    protected void begin(long startNanos) {
        for (int user = 0; user < userCount; user++) {
            sessionOfUser[user] = nextSession();
            scheduleUser(user, startNanos);
        }
        if (profile.limits().duration().isPresent()) {
            // The drain period starts when the load period ends, even if a user is stuck in a long request.
            long end = startNanos + profile.limits().duration().get().toNanos();
            scheduler.schedule(end, () -> {
                synchronized (this) {
                    creationFinished();
                }
            });
        }
    }

    @Override
    protected long loadEndOffsetNanos() {
        return profile.limits().duration().map(Duration::toNanos).orElse(Long.MAX_VALUE);
    }

    @Override
    protected void afterEnd(InFlightRequest request, RequestRecord record) {
        int user = userOf.remove(request);
        long pause = users.thinkTime().toNanos();
        if (conversation != null) {
            turnOfUser[user]++;
            if (turnOfUser[user] >= conversation.turnsOf(sessionOfUser[user])) {
                turnOfUser[user] = 0;
                sessionOfUser[user] = nextSession();
            } else {
                pause = conversation.thinkTime().toNanos();
            }
        }
        if (pause == 0 && transport.startsOnReadThreadsCheaply()) {
            // Sent by the thread that saw the end, which starts it once it leaves the monitor: through the
            // scheduler's one thread, follow-ups queued behind each other (p50 4-6 ms late at 100 streams).
            createAndDispatch(user, record.endNanos());
        } else {
            scheduleUser(user, record.endNanos() + pause);
        }
    }

    private long nextSession() {
        return options.shard().position(nextSession++);
    }

    private void scheduleUser(int user, long intendedNanos) {
        scheduler.schedule(intendedNanos, () -> send(user, intendedNanos));
    }

    private void send(int user, long intendedNanos) {
        synchronized (this) {
            createAndDispatch(user, intendedNanos);
        }
        startDispatched();
    }

    private void createAndDispatch(int user, long intendedNanos) {
        if (!mayCreate(intendedNanos)) {
            retiredUsers++;
            if (retiredUsers == userCount) {
                creationFinished();
            }
            return;
        }
        InFlightRequest request = conversation == null
                ? create(intendedNanos)
                : create(intendedNanos, index -> conversation.request(index, sessionOfUser[user], turnOfUser[user]));
        userOf.put(request, user);
        dispatch(request, false);
        if (requestLimitReached()) {
            creationFinished();
        }
    }
}
