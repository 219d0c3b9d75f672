package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.junit.GoodputTest;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;
import org.yaml.snakeyaml.Yaml;

/**
 * Holds the Kubernetes manifests in {@code examples/kubernetes} to the sharding contract: a cluster would only
 * find most of these mistakes once the run is under way (a shard count that disagrees with the Job's
 * completions leaves the barrier waiting for a shard that never comes; a barrier host that names no pod, the
 * same). It also holds {@code docs/distributed.md} to the manifests: every YAML block there must be lines of one
 * of them, verbatim.
 */
class KubernetesManifestsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path MANIFESTS = ROOT.resolve("examples/kubernetes");

    /** The {@code goodput.*} keys a manifest may pass: the sharding contract's, the server's and the reports'. */
    private static final Set<String> KEYS = Set.of(
            "goodput.shard.index",
            "goodput.shard.count",
            "goodput.shard.output",
            "goodput.shard.barrier",
            "goodput.shard.start-at",
            "goodput.shard.merge",
            "goodput.server.url",
            "goodput.server.model",
            "goodput.server.api-key-env",
            "goodput.report.dir");

    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    private final Map<String, Object> service = manifest("shard-job.yaml", "Service");
    private final Map<String, Object> shardJob = manifest("shard-job.yaml", "Job");
    private final Map<String, Object> mergeJob = manifest("merge-job.yaml", "Job");
    private final Map<String, Object> claim = manifest("results-pvc.yaml", "PersistentVolumeClaim");
    private final Map<String, Object> readerPod = map(manifest("results-reader.yaml", "Pod"), "spec");

    private final Map<String, Object> shardPod = map(shardJob, "spec.template.spec");
    private final Map<String, Object> mergePod = map(mergeJob, "spec.template.spec");
    private final Map<String, Object> shard = onlyContainer(shardPod);
    private final Map<String, Object> merge = onlyContainer(mergePod);
    private final LauncherCommand shardCommand = LauncherCommand.of(shard);
    private final LauncherCommand mergeCommand = LauncherCommand.of(merge);

    @Test
    void should_run_one_indexed_pod_per_shard() {
        assertThat(text(shardJob, "spec.completionMode"))
                .as("the shard Job's spec.completionMode (only an Indexed Job gives each pod its index)")
                .isEqualTo("Indexed");
        String count = shardCommand.configuration().get("goodput.shard.count");
        assertThat(count)
                .as("goodput.shard.count in the shard container's command")
                .isNotNull();
        assertThat(map(shardJob, "spec").get("completions"))
                .as("the shard Job's spec.completions against goodput.shard.count = %s", count)
                .hasToString(count);
        assertThat(map(shardJob, "spec").get("parallelism"))
                .as(
                        "the shard Job's spec.parallelism against goodput.shard.count = %s: the barrier waits for"
                                + " all shards, so all must run at once",
                        count)
                .hasToString(count);
    }

    @Test
    void should_give_each_shard_the_index_kubernetes_gives_its_pod() {
        assertThat(shardCommand.configuration().get("goodput.shard.index"))
                .as("goodput.shard.index in the shard container's command")
                .isEqualTo("$(JOB_COMPLETION_INDEX)");
    }

    @Test
    void should_address_the_barrier_to_shard_zeros_pod_through_the_headless_service() {
        String barrier = shardCommand.configuration().get("goodput.shard.barrier");
        assertThat(barrier).as("goodput.shard.barrier").contains(":");
        String host = barrier.substring(0, barrier.lastIndexOf(':'));
        int port = Integer.parseInt(barrier.substring(barrier.lastIndexOf(':') + 1));

        assertThat(text(shardPod, "subdomain"))
                .as("the shard pods' subdomain: it must be the headless Service's name for their DNS names to exist")
                .isEqualTo(text(service, "metadata.name"));
        assertThat(host)
                .as("the barrier host: an Indexed Job's pod 0 is <job name>-0, under <subdomain>")
                .isEqualTo(text(shardJob, "metadata.name") + "-0." + text(shardPod, "subdomain"));
        assertThat(text(service, "spec.clusterIP"))
                .as("the Service's clusterIP: only a headless Service gives each pod a DNS name")
                .isEqualTo("None");

        Map<String, Object> servicePort = onlyElement(list(service, "spec.ports"), "the Service's spec.ports");
        assertThat(servicePort.get("port"))
                .as("the Service's port against the barrier's, %s", barrier)
                .isEqualTo(port);
        Map<String, Object> containerPort = onlyElement(list(shard, "ports"), "the shard container's ports");
        assertThat(containerPort.get("containerPort"))
                .as("the shard container's port against the barrier's, %s", barrier)
                .isEqualTo(port);
        assertThat(servicePort.get("targetPort"))
                .as("the Service's targetPort: the shard container's port, by name or number")
                .isIn(containerPort.get("name"), containerPort.get("containerPort"));
    }

    @Test
    void should_select_the_shard_pods_by_their_labels_and_spread_them_over_nodes() {
        Map<String, Object> podLabels = map(shardJob, "spec.template.metadata.labels");
        Map<String, Object> selector = map(service, "spec.selector");
        assertThat(selector).as("the Service's selector").isNotEmpty();
        assertThat(podLabels)
                .as("the shard pods' labels against the Service's selector %s", selector)
                .containsAllEntriesOf(selector);

        Map<String, Object> term = onlyElement(
                list(shardPod, "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution"),
                "the shard pods' required anti-affinity terms");
        Map<String, Object> matchLabels = map(term, "labelSelector.matchLabels");
        assertThat(matchLabels).as("the anti-affinity's labelSelector").isNotEmpty();
        assertThat(podLabels)
                .as("the shard pods' labels against the anti-affinity's labelSelector %s", matchLabels)
                .containsAllEntriesOf(matchLabels);
        assertThat(text(term, "topologyKey"))
                .as("the anti-affinity's topologyKey: one shard per node")
                .isEqualTo("kubernetes.io/hostname");
    }

    @Test
    void should_merge_what_the_shards_wrote_on_the_same_claim() {
        String claimName = text(claim, "metadata.name");
        assertThat(list(claim, "spec.accessModes"))
                .as("the claim's access modes: shards on different nodes all write to it")
                .containsExactly("ReadWriteMany");
        String shardMount = mountPathOf(shardPod, shard, claimName);
        String mergeMount = mountPathOf(mergePod, merge, claimName);
        assertThat(mergeMount)
                .as("where the merge mounts claim %s, against the shards", claimName)
                .isEqualTo(shardMount);
        assertThat(mountPathOf(readerPod, onlyContainer(readerPod), claimName))
                .as("where results-reader.yaml mounts claim %s", claimName)
                .isEqualTo(shardMount);

        String output = shardCommand.configuration().get("goodput.shard.output");
        assertThat(output).as("the shards' goodput.shard.output").isNotNull();
        assertThat(Path.of(output))
                .as("goodput.shard.output: on the claim, mounted at %s", shardMount)
                .startsWithRaw(Path.of(shardMount));
        assertThat(mergeCommand.configuration().get("goodput.shard.merge"))
                .as("the merge's goodput.shard.merge against the shards' goodput.shard.output")
                .isEqualTo(output);
        assertThat(Path.of(mergeCommand.configuration().get("goodput.report.dir")))
                .as("the merge's goodput.report.dir: on the claim, so the reports outlive the pod")
                .startsWithRaw(Path.of(mergeMount));
    }

    @Test
    void should_run_the_same_gate_class_and_image_in_shards_and_merge() {
        String gate = shardCommand.selectedClass();
        assertThat(mergeCommand.selectedClass())
                .as("the merge's --select-class against the shards'")
                .isEqualTo(gate);
        assertThat(AnnotationSupport.isAnnotated(classNamed(gate), GoodputTest.class))
                .as("%s, the selected class, is a @GoodputTest", gate)
                .isTrue();
        assertThat(text(merge, "image")).as("the merge's image").isEqualTo(text(shard, "image"));
        assertThat(text(onlyContainer(readerPod), "image"))
                .as("results-reader.yaml's image")
                .isEqualTo(text(shard, "image"));
        for (String key : List.of("goodput.server.url", "goodput.server.model")) {
            assertThat(mergeCommand.configuration().get(key))
                    .as("the merge's %s against the shards'", key)
                    .isEqualTo(shardCommand.configuration().get(key));
        }
    }

    @Test
    void should_pass_only_goodput_keys_of_the_contract() {
        for (LauncherCommand command : List.of(shardCommand, mergeCommand)) {
            assertThat(command.configuration().keySet())
                    .as("the goodput.* keys of %s", command.words())
                    .filteredOn(key -> key.startsWith("goodput."))
                    .isSubsetOf(KEYS);
        }
    }

    @Test
    void should_launch_the_gates_with_the_console_launcher_from_the_images_class_path() throws IOException {
        String dockerfile = Files.readString(MANIFESTS.resolve("Dockerfile"));
        Matcher copy = Pattern.compile("(?m)^COPY --from=build \\S+ (\\S+/)$").matcher(dockerfile);
        assertThat(copy.find())
                .as("the Dockerfile's COPY --from=build of the jars")
                .isTrue();
        for (LauncherCommand command : List.of(shardCommand, mergeCommand)) {
            List<String> words = command.words();
            assertThat(words)
                    .as(
                            "a command line that runs the ConsoleLauncher from the jars the Dockerfile copies to %s",
                            copy.group(1))
                    .containsSubsequence(
                            "java",
                            "-cp",
                            copy.group(1) + "*",
                            "org.junit.platform.console.ConsoleLauncher",
                            "execute",
                            "--fail-if-no-tests");
        }
        assertThat(Files.readString(ROOT.resolve("examples/pom.xml")))
                .as("examples/pom.xml: the profile the Dockerfile builds with")
                .contains("<id>console-launcher</id>");
        assertThat(dockerfile)
                .as("the Dockerfile builds with the profile that adds the ConsoleLauncher")
                .contains("-P console-launcher");
    }

    @Test
    void should_take_the_api_key_from_a_secret_and_nowhere_else() {
        String keyVariable = shardCommand.configuration().get("goodput.server.api-key-env");
        assertThat(keyVariable).as("the shards' goodput.server.api-key-env").isNotNull();
        Map<String, Object> variable = list(shard, "env").stream()
                .map(KubernetesManifestsTest::asMap)
                .filter(entry -> keyVariable.equals(entry.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no env entry " + keyVariable + " in the shard container"));
        assertThat(variable)
                .as("env %s: its value comes from a Secret, not from the manifest", keyVariable)
                .doesNotContainKey("value")
                .containsKey("valueFrom");
        assertThat(map(variable, "valueFrom.secretKeyRef"))
                .as("env %s: from a Secret", keyVariable)
                .containsKeys("name", "key");

        for (Map<String, Object> container : List.of(shard, merge, onlyContainer(readerPod))) {
            for (Object entry : (List<?>) container.getOrDefault("env", List.of())) {
                Map<String, Object> env = asMap(entry);
                String name = String.valueOf(env.get("name"));
                if (name.matches("(?i).*(KEY|TOKEN|SECRET|PASSWORD).*")) {
                    assertThat(env)
                            .as("env %s of container %s: a credential comes from a Secret", name, container.get("name"))
                            .doesNotContainKey("value")
                            .containsKey("valueFrom");
                }
            }
        }
    }

    @Test
    void should_replace_failed_pods_instead_of_restarting_them_in_place() {
        assertThat(text(shardPod, "restartPolicy"))
                .as("the shard pods' restartPolicy: backoffLimitPerIndex and podFailurePolicy need Never")
                .isEqualTo("Never");
        assertThat(text(mergePod, "restartPolicy"))
                .as("the merge pod's restartPolicy")
                .isIn("Never", "OnFailure");
        for (Object rule : list(shardJob, "spec.podFailurePolicy.rules")) {
            Map<String, Object> onExitCodes = asMap(asMap(rule).get("onExitCodes"));
            if (onExitCodes != null) {
                assertThat(onExitCodes.get("containerName"))
                        .as("a pod failure rule's containerName")
                        .isEqualTo(shard.get("name"));
            }
        }
    }

    @Test
    void should_request_cpu_and_memory_and_leave_the_shards_cpu_unthrottled() {
        for (Map<String, Object> container : List.of(shard, merge, onlyContainer(readerPod))) {
            assertThat(map(container, "resources.requests"))
                    .as("container %s's resources.requests", container.get("name"))
                    .containsKeys("cpu", "memory");
        }
        assertThat(asMap(map(shard, "resources").getOrDefault("limits", Map.of())))
                .as("the shard container's limits: a CPU quota would add its throttling to the measured latencies")
                .doesNotContainKey("cpu");
    }

    @Test
    void should_quote_the_manifests_verbatim_in_the_documentation() throws IOException {
        String document = Files.readString(ROOT.resolve("docs/distributed.md"));
        List<List<String>> manifests = new ArrayList<>();
        try (Stream<Path> files = Files.list(MANIFESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                manifests.add(Files.readAllLines(file));
            }
        }
        Matcher block = YAML_BLOCK.matcher(document);
        int quoted = 0;
        while (block.find()) {
            List<String> excerpt = dedented(block.group(1).lines().toList());
            assertThat(manifests.stream().anyMatch(manifest -> contains(manifest, excerpt)))
                    .as("docs/distributed.md quotes lines of a manifest in examples/kubernetes:%n%s", block.group(1))
                    .isTrue();
            quoted++;
        }
        assertThat(quoted).as("YAML blocks in docs/distributed.md").isPositive();
    }

    /** The words of a container's command line and what they tell the ConsoleLauncher. */
    record LauncherCommand(List<String> words) {

        static LauncherCommand of(Map<String, Object> container) {
            List<String> words = new ArrayList<>();
            for (String field : List.of("command", "args")) {
                for (Object word : (List<?>) container.getOrDefault(field, List.of())) {
                    words.add(String.valueOf(word));
                }
            }
            return new LauncherCommand(words);
        }

        /** The values of an option, written {@code --name value} or {@code --name=value}. */
        List<String> values(String option) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < words.size(); i++) {
                if (words.get(i).equals(option) && i + 1 < words.size()) {
                    values.add(words.get(i + 1));
                } else if (words.get(i).startsWith(option + "=")) {
                    values.add(words.get(i).substring(option.length() + 1));
                }
            }
            return values;
        }

        String selectedClass() {
            List<String> classes = values("--select-class");
            assertThat(classes).as("--select-class in %s", words).hasSize(1);
            return classes.get(0);
        }

        /** The {@code --config} parameters; the ConsoleLauncher refuses a key given twice, and so does this. */
        Map<String, String> configuration() {
            Map<String, String> parameters = new LinkedHashMap<>();
            for (String pair : values("--config")) {
                assertThat(pair).as("--config %s: KEY=VALUE", pair).contains("=");
                String key = pair.substring(0, pair.indexOf('='));
                assertThat(parameters.put(key, pair.substring(pair.indexOf('=') + 1)))
                        .as("--config %s given twice", key)
                        .isNull();
            }
            return parameters;
        }
    }

    private static Map<String, Object> manifest(String file, String kind) {
        List<Map<String, Object>> found = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(MANIFESTS.resolve(file))) {
            for (Object document : new Yaml().loadAll(in)) {
                if (document != null && kind.equals(asMap(document).get("kind"))) {
                    found.add(asMap(document));
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot read " + MANIFESTS.resolve(file), e);
        }
        return onlyElement(found, "the " + kind + " in " + file);
    }

    /** The mount path of the volume that holds claim {@code claimName}, asserting there is exactly one. */
    private static String mountPathOf(Map<String, Object> pod, Map<String, Object> container, String claimName) {
        Map<String, Object> volume = onlyElement(
                list(pod, "volumes").stream()
                        .map(KubernetesManifestsTest::asMap)
                        .filter(v -> v.get("persistentVolumeClaim") != null
                                && claimName.equals(text(v, "persistentVolumeClaim.claimName")))
                        .toList(),
                "the volumes of claim " + claimName);
        Map<String, Object> mount = onlyElement(
                list(container, "volumeMounts").stream()
                        .map(KubernetesManifestsTest::asMap)
                        .filter(m -> volume.get("name").equals(m.get("name")))
                        .toList(),
                "the mounts of volume " + volume.get("name") + " in container " + container.get("name"));
        return text(mount, "mountPath");
    }

    private static Class<?> classNamed(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError("--select-class " + name + " names no class on the examples' class path", e);
        }
    }

    private static boolean contains(List<String> manifest, List<String> excerpt) {
        for (int start = 0; start + excerpt.size() <= manifest.size(); start++) {
            if (dedented(manifest.subList(start, start + excerpt.size())).equals(excerpt)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> dedented(List<String> lines) {
        int indent = lines.stream()
                .filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length())
                .min()
                .orElse(0);
        return lines.stream()
                .map(line -> line.isBlank() ? "" : line.substring(indent))
                .toList();
    }

    private static Map<String, Object> onlyContainer(Map<String, Object> pod) {
        return onlyElement(list(pod, "containers"), "the containers of a pod");
    }

    private static <T> Map<String, Object> onlyElement(List<T> elements, String what) {
        assertThat(elements).as(what).hasSize(1);
        return asMap(elements.get(0));
    }

    private static Object at(Map<String, Object> node, String path) {
        Object current = node;
        for (String key : path.split("\\.")) {
            assertThat(current).as("%s, at %s", path, key).isInstanceOf(Map.class);
            current = ((Map<?, ?>) current).get(key);
            assertThat(current).as("%s (no %s)", path, key).isNotNull();
        }
        return current;
    }

    private static Map<String, Object> map(Map<String, Object> node, String path) {
        return asMap(at(node, path));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> node, String path) {
        Object value = at(node, path);
        assertThat(value).as(path).isInstanceOf(List.class);
        return (List<Object>) value;
    }

    private static String text(Map<String, Object> node, String path) {
        return String.valueOf(at(node, path));
    }

    /** The node as a mapping, or null for null (a key the manifest leaves out). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object node) {
        if (node != null) {
            assertThat(node).as("a YAML mapping").isInstanceOf(Map.class);
        }
        return (Map<String, Object>) node;
    }
}
