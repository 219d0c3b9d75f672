/**
 * What must hold: an {@link dev.goodput.core.objective.Objective} on a {@link dev.goodput.core.objective.Metric}
 * (the {@code @Slo} annotation of the JUnit extension), and the {@link dev.goodput.core.objective.ObjectiveVerdict}
 * a run earns for it: {@link dev.goodput.core.objective.Verdict#MET}, {@code VIOLATED} or {@code INCONCLUSIVE}.
 */
package dev.goodput.core.objective;
