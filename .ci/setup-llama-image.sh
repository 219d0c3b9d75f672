#!/usr/bin/env bash
# Builds a local llama.cpp server image for LlamaCppContainer's end-to-end test, without a registry: the
# llama-server binary that .ci/setup-llama.sh built (GOODPUT_LLAMA_SERVER), every shared library it loads and
# the dynamic loader, in a one-layer image whose entrypoint is /app/llama-server, as in the official
# ghcr.io/ggml-org/llama.cpp server images.
#
# Run after setup-podman.sh and setup-llama.sh, as root, with their exports in the environment:
#   eval "$(bash .ci/setup-podman.sh)"; eval "$(bash .ci/setup-llama.sh)"; eval "$(bash .ci/setup-llama-image.sh)"
# Idempotent: the import is skipped when the image exists. Prints only the export line on stdout; if anything
# fails it prints nothing there and exits 0, so the build still runs and the end-to-end test skips itself.
# `--name-for <version>` prints only the name the image of that llama.cpp version has.
set -uo pipefail

say() { echo "setup-llama-image: $*" >&2; }

image_name() { echo "localhost/goodput-llama.cpp:server-$1"; }

# The image's name for a llama.cpp version, for .ci/setup-llama.sh --background, which exports it before it exists.
if [ "${1:-}" = "--name-for" ]; then
  image_name "$2"
  exit 0
fi

setup() {
  local binary=${GOODPUT_LLAMA_SERVER:-} version=${GOODPUT_LLAMA_VERSION:-}
  if [ -z "$binary" ] || [ ! -x "$binary" ]; then
    say "GOODPUT_LLAMA_SERVER is not an executable ('$binary'); run .ci/setup-llama.sh first. NO IMAGE BUILT"
    return 1
  fi
  if [ -z "$version" ]; then
    say "GOODPUT_LLAMA_VERSION is not set; run .ci/setup-llama.sh first. NO IMAGE BUILT"
    return 1
  fi
  if ! command -v podman >/dev/null 2>&1; then
    say "podman is not installed; run .ci/setup-podman.sh first. NO IMAGE BUILT"
    return 1
  fi
  IMAGE=$(image_name "$version")
  if podman image exists "$IMAGE"; then
    return 0
  fi
  say "building $IMAGE from $binary (no registry needed)"
  build_image "$binary" || { say "building $IMAGE FAILED; the llama.cpp end-to-end test will be skipped"; return 1; }
}

# The binary at /app/llama-server, with the shared objects beside it (llama.cpp's own libraries, found through
# an $ORIGIN run path, and ggml backends it may dlopen from there), and every library ldd names, at its path.
build_image() {
  local binary=$1 work root
  work=$(mktemp -d) || return 1
  root="$work/rootfs"
  mkdir -p "$root/app" "$root/tmp" "$root/etc" && chmod 1777 "$root/tmp"
  cp -L "$binary" "$root/app/llama-server" || return 1
  local folder
  folder=$(dirname "$(readlink -f "$binary")")
  find "$folder" -maxdepth 1 -name '*.so*' -exec cp -L {} "$root/app/" \;
  local objects
  objects=$( { echo "$binary"; find "$folder" -maxdepth 1 -name '*.so*'; } | while read -r object; do
    ldd "$object" 2>/dev/null | grep -o '/[^ ]*' || true
  done | sort -u)
  [ -n "$objects" ] || { say "ldd names no libraries for $binary"; return 1; }
  local library
  for library in $objects; do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library" || return 1
  done
  echo 'root:x:0:0:root:/root:/sbin/nologin' >"$root/etc/passwd"
  mkdir -p "$root/root"
  tar -C "$root" -cf "$work/rootfs.tar" . || return 1
  podman import \
    --change 'ENTRYPOINT ["/app/llama-server"]' \
    --change 'WORKDIR /app' \
    --change 'ENV LD_LIBRARY_PATH=/app' \
    --change "LABEL org.opencontainers.image.version=$GOODPUT_LLAMA_VERSION" \
    --change "LABEL org.opencontainers.image.revision=${GOODPUT_LLAMA_COMMIT:-unknown}" \
    "$work/rootfs.tar" "$IMAGE" >&2 || return 1
  rm -rf "$work"
  # The image must run: a missing library shows up here rather than as a container that never gets healthy.
  podman run --rm "$IMAGE" --version >&2 2>&1 || { podman rmi -f "$IMAGE" >&2; return 1; }
}

if setup; then
  echo "export GOODPUT_LLAMA_IMAGE=$IMAGE"
fi
exit 0
