#!/bin/bash
# Multi-host test: two network namespaces joined by a veth pair act as two hosts; mpirun runs
# in the first and starts the second host's ranks through an rsh agent that enters the
# second namespace. OpenMPI talks TCP over the veth subnet only, so no traffic leaves the
# namespaces this test makes, and they are deleted at the end.
#   multihost_test.sh BINARY [RANKS_PER_HOST [ARGS...]]
# ARGS go to every rank; those that name existing files are made absolute first.
# Needs root and `ip` (iproute2). Where either is missing or the kernel refuses network
# namespaces, it prints SKIPPED with the reason and records the test as skipped in the
# XML report Bazel collects, so the suite's summary counts it as skipped, not passed.
set -u
binary="$(realpath "$1")"
per_host="${2:-2}"
shift $(( $# < 2 ? $# : 2 ))
args=()
for arg in "$@"; do
  if [[ -f "$arg" ]]; then args+=("$(realpath "$arg")"); else args+=("$arg"); fi
done
export PATH="$PATH:/usr/sbin:/sbin"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Bazel's gtest hooks name one file for the whole test; every rank would race on it. The
# script writes the report itself when it skips.
xml_report="${XML_OUTPUT_FILE:-}"
unset TEST_PREMATURE_EXIT_FILE XML_OUTPUT_FILE
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/multihost.XXXXXX")"
export TMPDIR="$work"

source "$(dirname "$0")/../skipped_test.sh"
skip() {
  report_skipped mpi_multihost_test "$xml_report" "$@"
  rm -rf "$work"
  exit 0
}

[[ $(id -u) -eq 0 ]] || skip "needs root to create network namespaces (running as uid $(id -u))"
command -v ip >/dev/null || skip "the ip tool (iproute2) is not installed"
command -v mpirun >/dev/null || skip "mpirun (openmpi-bin) is not installed"

ns1="tessel_h1_$$"
ns2="tessel_h2_$$"
subnet="10.203.0.0/24"
ip1="10.203.0.1"
ip2="10.203.0.2"
cleanup() {
  ip netns del "$ns1" 2>/dev/null
  ip netns del "$ns2" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

if ! error=$(ip netns add "$ns1" 2>&1); then
  skip "the kernel refused a network namespace: ip netns add: $error"
fi
ip netns add "$ns2" || skip "the kernel refused a second network namespace"
# The veth ends are created straight inside the namespaces, so their names cannot clash
# with the host's interfaces or with a concurrent run.
if ! error=$(ip link add name veth_h1 netns "$ns1" type veth peer name veth_h2 netns "$ns2" 2>&1); then
  skip "the kernel refused a veth pair between namespaces: $error"
fi
ip -n "$ns1" addr add "$ip1/24" dev veth_h1
ip -n "$ns2" addr add "$ip2/24" dev veth_h2
for ns in "$ns1" "$ns2"; do
  ip -n "$ns" link set lo up
done
ip -n "$ns1" link set veth_h1 up
ip -n "$ns2" link set veth_h2 up

# The rsh agent: OpenMPI calls it as `agent [options] HOST COMMAND...`; it runs COMMAND in
# the namespace that plays HOST and records the launch, so the test can prove that ranks
# really started on the second host.
agent="$work/netns_agent.sh"
cat >"$agent" <<AGENT
#!/bin/bash
while [[ "\$1" == -* ]]; do shift; done
host="\$1"; shift
case "\$host" in
  $ip1) ns="$ns1" ;;
  $ip2) ns="$ns2" ;;
  *) echo "netns agent: unknown host \$host" >&2; exit 1 ;;
esac
echo "launch on \$host in \$ns" >>"$work/launches.log"
exec ip netns exec "\$ns" sh -c "\$*"
AGENT
chmod +x "$agent"

np=$((2 * per_host))
start=$(date +%s)
timeout 240 ip netns exec "$ns1" mpirun --oversubscribe -np "$np" \
  --host "$ip1:$per_host,$ip2:$per_host" \
  --mca plm_rsh_agent "$agent" \
  --mca btl tcp,self --mca btl_tcp_if_include "$subnet" --mca oob_tcp_if_include "$subnet" \
  "$binary" "${args[@]}"
rc=$?
echo "mpirun across two namespaces ($np ranks) exited with $rc after $(( $(date +%s) - start ))s"
failures=0
(( rc == 0 )) || failures=1
if ! grep -q "launch on $ip2 in $ns2" "$work/launches.log" 2>/dev/null; then
  echo "FAIL: no rank was launched on the second host"
  failures=1
fi
(( failures == 0 ))
