#!/usr/bin/env bash
# Checks that a plugin can only ever call the MLIR inside the driver that loads it.
# A plugin names libMLIR.so, so that library is loaded beside a driver that has MLIR built
# in. Each MLIR symbol the plugin needs resolves to the driver's copy only if the driver
# exports it; one the driver lacks would bind to libMLIR.so, whose registries and type ids
# are not the driver's. Prints the symbols the driver lacks and fails if there are any.
#   check_plugin_symbols.sh DRIVER PLUGIN...
set -euo pipefail
driver="$1"
shift
exported="$(mktemp)"
trap 'rm -f "$exported" "$exported".*' EXIT
nm -D --defined-only "$driver" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$exported"
status=0
for plugin in "$@"; do
  libmlir="$(ldd "$plugin" | awk '/libMLIR\.so/ {print $3}')"
  if [[ -z "$libmlir" ]]; then
    echo "$(basename "$plugin"): does not link libMLIR.so"
    continue
  fi
  nm -D --defined-only "$libmlir" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$exported.mlir"
  nm -D --undefined-only "$plugin" | awk '{print $2}' | sed 's/@.*//' | sort -u |
    comm -12 - "$exported.mlir" > "$exported.needed"
  missing="$(comm -23 "$exported.needed" "$exported")"
  if [[ -n "$missing" ]]; then
    echo "$(basename "$plugin"): MLIR symbols that $(basename "$driver") does not export:"
    echo "$missing" | c++filt
    status=1
  else
    echo "$(basename "$plugin"): all $(wc -l < "$exported.needed") MLIR symbols it needs are the driver's"
  fi
done
exit $status
