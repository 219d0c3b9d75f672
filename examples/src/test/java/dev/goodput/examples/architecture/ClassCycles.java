package dev.goodput.examples.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Finds import circles among the top-level classes of one module: Tarjan's strongly connected components over
 * the classes' bytecode dependencies, a nested class counting as its top-level class. Each component of more than
 * one class holds at least one cycle; a component whose classes lie in more than one package is reported whole,
 * with its edges, since that is what has to be cut.
 *
 * <p>Classes of one package may know each other both ways: a package is one unit, and some pairs must (an
 * annotation and its repeatable container, an interface and the implementation its factory returns, an assertion
 * and the assertion it navigates to). A circle through two packages couples layers that should depend one way
 * (an API and its internals, a workload and the result calculator), and is what this check forbids.
 */
final class ClassCycles {

    /** Top-level class name to the top-level classes of the same module it depends on. */
    private final Map<String, Set<String>> edges = new TreeMap<>();

    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> lowLink = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final List<Set<String>> components = new ArrayList<>();

    private ClassCycles(Iterable<JavaClass> moduleClasses, PublishedModules module) {
        for (JavaClass type : moduleClasses) {
            String from = PublishedModules.topLevel(type).getName();
            Set<String> targets = edges.computeIfAbsent(from, name -> new TreeSet<>());
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                if (module.contains(target)) {
                    String to = PublishedModules.topLevel(target).getName();
                    if (!to.equals(from)) {
                        targets.add(to);
                    }
                }
            }
        }
    }

    /**
     * Returns one line per cycle among the module's classes, naming every class of it and the edges between them,
     * for example {@code "A -> [B]; B -> [A]"}; empty when the module has none.
     */
    static List<String> in(Iterable<JavaClass> moduleClasses, PublishedModules module) {
        ClassCycles cycles = new ClassCycles(moduleClasses, module);
        for (String node : cycles.edges.keySet()) {
            if (!cycles.index.containsKey(node)) {
                cycles.connect(node);
            }
        }
        List<String> lines = new ArrayList<>();
        for (Set<String> component : cycles.components) {
            List<String> parts = new ArrayList<>();
            for (String member : component) {
                Set<String> inside = new TreeSet<>(cycles.edges.getOrDefault(member, Set.of()));
                inside.retainAll(component);
                parts.add(module.relative(member) + " -> "
                        + inside.stream().map(module::relative).toList());
            }
            lines.add(module.directory + ": " + String.join("; ", parts));
        }
        return lines;
    }

    private void connect(String node) {
        index.put(node, index.size());
        lowLink.put(node, index.get(node));
        stack.push(node);
        for (String next : edges.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next);
                lowLink.put(node, Math.min(lowLink.get(node), lowLink.get(next)));
            } else if (stack.contains(next)) {
                lowLink.put(node, Math.min(lowLink.get(node), index.get(next)));
            }
        }
        if (lowLink.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1 && packages(component) > 1) {
                components.add(component);
            }
        }
    }

    private static long packages(Set<String> classNames) {
        return classNames.stream()
                .map(name -> name.substring(0, name.lastIndexOf('.')))
                .distinct()
                .count();
    }
}
