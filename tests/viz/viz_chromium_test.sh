#!/usr/bin/env bash
# Loads `tessel viz --format=html` of a shipped example in headless Chromium: the DOM must
# hold every expected tile with its devices and ranges, and a screenshot must show the tiles
# in their colours (so a page that parses but draws nothing fails).
#   viz_chromium_test.sh TESSEL CHECK_VIZ_PAGE_PY PROGRAM
# Without Chromium (Debian's `chromium` package; scripts/setup.sh installs it) it prints
# SKIPPED and records the test as skipped in the XML report Bazel collects, so the suite's
# summary counts it as skipped, not passed.
set -euo pipefail
tessel="$1"
check="$2"
program="$3"
# Bazel gives every test a scratch directory; elsewhere the system default.
work="$(TMPDIR="${TEST_TMPDIR:-${TMPDIR:-}}" mktemp -d -t viz_chromium.XXXXXX)"
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/../skipped_test.sh"
skip() {
  report_skipped viz_chromium_test "${XML_OUTPUT_FILE:-}" "$@"
  exit 0
}

browser="$(command -v chromium || true)"
[[ -n "$browser" ]] || skip "chromium is not installed (apt-get install chromium)"

# Headless, as root in a container: Chromium's own sandbox needs user namespaces it may not
# get, so it is off (the page is our own file). A profile of its own in the test's scratch
# space, and `timeout` so that a browser that hangs fails the test instead of stalling it.
run_chromium() {
  timeout -k 5 60 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --hide-scrollbars --user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}

"$tessel" viz "$program" --format=html > "$work/page.html"
if ! run_chromium --dump-dom "file://$work/page.html" > "$work/dom.html"; then
  echo "FAIL: chromium --dump-dom failed; its log:"
  tail -20 "$work/chromium.log"
  exit 1
fi

# docs/examples/grid.mlir on its 2x3 mesh: %a, %neg and %sum (4x7 over x and y) have six
# tiles each, the last column padded ([6:7] of a piece of 3); %b (2x5 rows over y) three,
# the last empty; %p two tiles of partial sums over y; %c (rank 3) six.
python3 "$check" dom "$work/dom.html" 29 \
  'v0-r0-c0=0|[0:2, 0:3]' \
  'v0-r1-c2=5|[2:4, 6:7]' \
  'v1-r2-c0=2,5|[2:2, 0:5]' \
  'v2-r0-c1=3-5|[3:6]' \
  'v3-r1-c2=5|[:, 2:4, 4:6]' \
  --count value=6 empty=1 partial=2 padding=7 note=4
echo "PASS: the DOM has the 29 tiles"

# docs/examples/windowed.mlir @pool: 12 elements in three tiles, read by a reduce_window of
# window 3 and padding 1. Tile i computes outputs [4i, 4i + 4), reading inputs
# [4i - 1, 4i + 5): the first needs 1 element after it, the middle 1 on each side, the last
# 1 before it; each band lies beyond its tile's box, over the neighbour it comes from.
"$tessel" viz "$(dirname "$program")/windowed.mlir" --function=pool --value=%v --format=html \
  -o "$work/halos.html"
if ! run_chromium --dump-dom "file://$work/halos.html" > "$work/halos_dom.html"; then
  echo "FAIL: chromium --dump-dom failed on the halo page; its log:"
  tail -20 "$work/chromium.log"
  exit 1
fi
python3 "$check" dom "$work/halos_dom.html" 3 \
  'v0-r0-c0=0|[0:4]' \
  'v0-r0-c2=2|[8:12]' \
  --count halo=4 \
  --halo 'v0-r0-c0/high/0=1' 'v0-r0-c1/low/0=1' 'v0-r0-c1/high/0=1' 'v0-r0-c2/low/0=1'
echo "PASS: the halo page has its 4 bands beside their tiles"

if ! run_chromium --screenshot="$work/shot.png" --window-size=1000,1400 \
    "file://$work/page.html" > /dev/null; then
  echo "FAIL: chromium --screenshot failed; its log:"
  tail -20 "$work/chromium.log"
  exit 1
fi
# The first tiles' colours: palette colours 0 and 1 (#afd7ff, #ffd7af).
python3 "$check" png "$work/shot.png" '#afd7ff' '#ffd7af'
echo "PASS: the screenshot shows the tiles"
