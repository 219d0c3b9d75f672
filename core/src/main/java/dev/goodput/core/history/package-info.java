/**
 * A run history and its change points: each run appends its key figures as one line of a JSON Lines file
 * ({@link dev.goodput.core.history.RunHistory}), and {@link dev.goodput.core.history.ChangePoints} finds the
 * commits where a series shifted, in the manner of Apache Otava (formerly Hunter): a two-sample t-test over windows
 * on each side of a candidate split, binary segmentation, a maximum p-value and a minimum relative change.
 * {@link dev.goodput.core.history.ChangePointReport} is the command-line check for a nightly job.
 */
package dev.goodput.core.history;
