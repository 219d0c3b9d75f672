package dev.goodput.testcontainers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testcontainers.utility.DockerImageName;

/** What a run's result records about the container it measured: image, tag and the server's arguments. */
final class ContainerMetadata {

    private ContainerMetadata() {}

    static Map<String, Object> of(String server, DockerImageName name, List<String> arguments) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("server", server);
        metadata.put("container_image", name.getUnversionedPart());
        metadata.put("container_tag", name.getVersionPart());
        metadata.put("engine_args", List.copyOf(arguments));
        return metadata;
    }
}
