#!/usr/bin/env bash
# Packs the NCCL backend's GPU tests and benchmark into one directory that runs on a GPU
# machine without Bazel, MLIR or Abseil installed (docs/nccl.md):
#
#   scripts/pack_nccl_checks.sh DIR        # here: builds with --config=cuda, fills DIR
#   DIR/run.sh LOGDIR                      # there: tests and benchmark, logs in LOGDIR
#
# The binaries link Tessel statically; the Abseil and CUDA runtime libraries they need are
# copied beside them. NCCL is not copied (it is large): run.sh uses the GPU machine's own
# libnccl.so.2, the first one it finds under /usr or /opt unless NCCL_LIB names one.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1

binaries=(
  benchmarks/nccl_collectives_benchmark
  collectives/nccl/nccl_types_test
  collectives/nccl/nccl_bootstrap_test
  collectives/nccl/nccl_communicator_test
  collectives/nccl/nccl_communicator_errors_test
)
labels=()
for binary in "${binaries[@]}"; do labels+=("//${binary%/*}:${binary##*/}"); done
bazel build -c opt --config=cuda --dynamic_mode=off "${labels[@]}" 2>&1 | tail -n 2

rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib"
for binary in "${binaries[@]}"; do cp "bazel-bin/$binary" "$dir/bin/"; done
# Every shared library outside the C and C++ runtimes, which the GPU machine has, and NCCL.
ldd "$dir"/bin/* | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libnccl)\.so' |
  xargs -I{} cp -L {} "$dir/lib/"

cat > "$dir/run.sh" <<'EOF'
#!/usr/bin/env bash
# Runs Tessel's NCCL tests and benchmark on this machine's GPUs; logs go to LOGDIR.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${1:?usage: run.sh LOGDIR}
mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$logs/gpu.txt"
nccl=${NCCL_LIB:-$(find /usr /opt -name 'libnccl.so.2' 2>/dev/null | head -n 1)}
[[ -n $nccl ]] || { echo "no libnccl.so.2 found; set NCCL_LIB" >&2; exit 1; }
echo "NCCL library: $nccl" | tee -a "$logs/gpu.txt"
export LD_LIBRARY_PATH=$here/lib:$(dirname "$nccl")
status=0
for test in nccl_types_test nccl_bootstrap_test nccl_communicator_test \
            nccl_communicator_errors_test; do
  echo "=== $test" | tee -a "$logs/tests.log"
  timeout 600 "$here/bin/$test" --gtest_output="xml:$logs/$test.xml" >> "$logs/tests.log" 2>&1
  rc=$?
  echo "rc=$rc" | tee -a "$logs/tests.log"
  [[ $rc -eq 0 ]] || status=1
done
grep -E '^\[ +(OK|FAILED) +\]' "$logs/tests.log"
echo "passed: $(grep -c '^\[       OK \]' "$logs/tests.log")," \
  "failed: $(grep -c '^\[  FAILED  \] .*(' "$logs/tests.log")," \
  "skipped: $(grep -c '^\[  SKIPPED \] .*(' "$logs/tests.log")"
echo "=== benchmark"
timeout 600 "$here/bin/nccl_collectives_benchmark" --rounds=11 | tee "$logs/nccl_benchmark.md"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
exit $status
EOF
chmod +x "$dir/run.sh"
echo "packed $(du -sh "$dir" | cut -f1) into $dir; on the GPU machine: $dir/run.sh LOGDIR"
