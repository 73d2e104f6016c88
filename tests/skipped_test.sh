# Sourced by shell tests that cannot run everywhere (no browser, no root for network
# namespaces). report_skipped prints SKIPPED with the reason and, when Bazel asked for an XML
# report, writes one that marks the test skipped, so the suite's summary counts it as
# skipped, not passed. The caller exits afterwards, after its own cleanup.
#   report_skipped TEST_NAME XML_FILE_OR_EMPTY REASON...
report_skipped() {
  local name="$1" xml="$2"
  shift 2
  echo "SKIPPED: $*"
  [[ -n "$xml" ]] || return 0
  cat > "$xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="$name" tests="1" skipped="1">
<testcase name="$name" status="notrun"><skipped message="$*"/></testcase>
</testsuite></testsuites>
XML
}
