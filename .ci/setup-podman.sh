#!/usr/bin/env bash
# Gives Testcontainers a container engine on a CI machine without Docker and without an image registry:
# Podman from Debian's packages, its Docker-compatible socket, and a local JRE image made with jlink.
#
# Idempotent and quick on a second run. Run as root. Prints the environment to export; source-friendly use:
#   eval "$(.ci/setup-podman.sh)"
# Everything it says goes to stderr except the export lines. If any step fails it prints nothing to stdout
# and exits 0, so the build still runs and the container tests skip themselves with a message.
set -uo pipefail

SOCKET=/run/podman/podman.sock
BASE_IMAGE=localhost/goodput-jre:17
say() { echo "setup-podman: $*" >&2; }

setup() {
  if [ "$(id -u)" != 0 ]; then
    say "not root; leaving the container tests to skip themselves"
    return 1
  fi

  if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
    say "installing podman and runc"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || return 1
    apt-get install -y -qq --no-install-recommends podman runc >&2 || return 1
  fi

  # No cgroup delegation or ulimit raising inside this sandbox; runc works where crun's defaults do not.
  local conf=/etc/containers/containers.conf
  if ! grep -q 'goodput' "$conf" 2>/dev/null; then
    mkdir -p /etc/containers
    cat >"$conf" <<'EOF'
# written by goodput's .ci/setup-podman.sh
[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
EOF
  fi

  if ! curl -sf --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1; then
    say "starting the Podman API service on $SOCKET"
    mkdir -p "$(dirname "$SOCKET")"
    rm -f "$SOCKET"
    # From /, not the checkout: the service outlives this run, and conmon fails every container start
    # ("Failed to get working directory") once the directory it was started in is deleted.
    # The whole subshell is redirected, so nothing keeps this script's stdout (read by eval) open.
    (cd / && exec nohup podman system service --time=0 "unix://$SOCKET") </dev/null >/tmp/podman-service.log 2>&1 &
    for _ in $(seq 1 50); do
      curl -sf --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1 && break
      sleep 0.2
    done
    curl -sf --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1 || { say "the service did not answer"; return 1; }
  fi

  if ! podman image exists "$BASE_IMAGE"; then
    say "building $BASE_IMAGE from this machine's JDK (no registry needed)"
    build_base_image || return 1
  fi
  return 0
}

# A JRE made with jlink plus the shared libraries it links against, imported as a one-layer image.
build_base_image() {
  local work
  work=$(mktemp -d)
  local root="$work/rootfs" java_home=/opt/java/openjdk
  jlink --add-modules java.base,java.sql,java.logging,java.management,jdk.unsupported,jdk.crypto.ec \
    --strip-debug --no-man-pages --no-header-files --compress=2 --output "$root$java_home" >&2 || return 1
  # Every shared library the runtime loads, at the same path, plus the dynamic loader.
  find "$root$java_home" -name '*.so' -o -path '*/bin/java' | while read -r binary; do
    ldd "$binary" 2>/dev/null | grep -o '/[^ ]*' || true
  done | sort -u | while read -r library; do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
  done
  mkdir -p "$root/tmp" "$root/etc" && chmod 1777 "$root/tmp"
  echo 'root:x:0:0:root:/root:/sbin/nologin' >"$root/etc/passwd"
  tar -C "$root" -cf "$work/rootfs.tar" . || return 1
  podman import --change "ENV PATH=$java_home/bin:/usr/bin:/bin" --change "ENV JAVA_HOME=$java_home" \
    "$work/rootfs.tar" "$BASE_IMAGE" >&2 || return 1
  rm -rf "$work"
}

if setup; then
  echo "export DOCKER_HOST=unix://$SOCKET"
  echo "export TESTCONTAINERS_RYUK_DISABLED=true"
  echo "export TESTCONTAINERS_HOST_OVERRIDE=localhost"
  echo "export GOODPUT_MOCK_SERVER_BASE_IMAGE=$BASE_IMAGE"
else
  say "no container engine; tests that need one will be skipped"
fi
