#!/usr/bin/env bash
# Builds and runs the workspace beside this script, which uses Tessel the way another
# project would (local_repository + tessel_dependencies()), with a Bazel server and output
# tree of its own, offline. Passes when the build succeeds and the program it builds
# partitions a matmul whose run on 3 devices matches the single-device run.
set -uo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
workspace="$here/workspace"
[[ -f "$workspace/WORKSPACE" ]] || { echo "FAILED: no consumer workspace at $workspace"; exit 1; }

# A fresh output tree every time: the point is to build as a new checkout would. Work
# already done comes from the disk cache that Tessel's own builds use (.bazelrc), so only
# the first run on a machine compiles everything.
# A short path under /tmp rather than $TEST_TMPDIR, deep in the outer build's tree.
root="$(mktemp -d /tmp/tessel-consumer.XXXXXX)"
trap 'chmod -R u+w "$root" 2>/dev/null; rm -rf "$root"' EXIT
# The user's real home: a Bazel test's HOME is its own temporary directory.
home="$(getent passwd "$(id -u)" | cut -d: -f6)"
disk_cache="${TESSEL_BAZEL_DISK_CACHE:-$home/.cache/tessel-bazel-disk}"

start=$(date +%s)
# The same environment wherever this runs (a shell, a Bazel test): Bazel's C++ toolchain
# setup names the compiler by the path PATH finds it at (/bin/gcc or /usr/bin/gcc), and a
# different name is a different action, which would miss the disk cache.
# --batch: no server is left running; --symlink_prefix=/: no bazel-* links in the source tree.
(cd "$workspace" && env -i HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin \
  bazel --batch --output_user_root="$root" \
  run --disk_cache="$disk_cache" --symlink_prefix=/ //:partition_matmul) 2>&1 | tail -n 40
status=${PIPESTATUS[0]}
echo "consumer build and run: $(( $(date +%s) - start )) s, exit $status"
if [[ $status -ne 0 ]]; then
  echo "FAILED: the consumer workspace did not build or its program failed"
  exit 1
fi
