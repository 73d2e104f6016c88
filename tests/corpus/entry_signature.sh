# Sourced by the corpus tests that compare partitioned programs: signature FILE prints the
# sharding and type of each argument and result of the partitioned @main of FILE, in order.
signature() {
  grep -m1 'func.func .*@main(' "$1" | grep -o '#tessel.sharding<[^>]*>\|tensor<[^>]*>'
}
