// RUN: tessel-opt %s -split-input-file --tessel-import-hlo-shardings -verify-diagnostics

// A manual value beside a tiled one, with no shard_map between them.
// expected-error @+1 {{result 0: sharding '{manual}' is manual, but other values of the module are not: a value becomes manual only inside a shard_map (between SPMDFullToShardShape and SPMDShardToFullShape), or everywhere in a program that is per-device throughout}}
func.func @manual(%arg0: tensor<8xf32> {tessel.hlo_sharding = "{devices=[2]<=[2]}"}) -> (tensor<8xf32> {tessel.hlo_sharding = "{manual}"}) {
  return %arg0 : tensor<8xf32>
}

// -----

func.func @manual_tile_dims(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding '{devices=[2,2]<=[4] last_tile_dims={manual}}' has manual tile dims, which have no mesh form outside a tessel.manual_computation}}
  %0 = hlo.neg %arg0 {tessel.hlo_sharding = "{devices=[2,2]<=[4] last_tile_dims={manual}}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @leaf_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding '{replicated}' has 1 leaves but annotates 2 values}}
  %0:2 = hlo.custom_call @k(%arg0) {tessel.hlo_sharding = "{replicated}"} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{argument 0: sharding '{devices=[2,2]<=[4]}' tiles 2 dims but the value has rank 1}}
func.func @rank(%arg0: tensor<8xf32> {tessel.hlo_sharding = "{devices=[2,2]<=[4]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{argument 1: sharding '{devices=[4]<=[4]}' spans 4 devices but sharding '{devices=[2]<=[2]}' spans 2}}
func.func @device_count(%arg0: tensor<8xf32> {tessel.hlo_sharding = "{devices=[2]<=[2]}"},
                        %arg1: tensor<8xf32> {tessel.hlo_sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{argument 0: sharding '#sdy.sharding<@mesh, [{"x"}]>' does not parse}}
func.func @unparsable(%arg0: tensor<8xf32> {tessel.hlo_sharding = "#sdy.sharding<@mesh, [{\"x\"}]>"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
