// Conversions between Tessel's sharding values and their protobuf messages (sharding.proto).
// OpSharding is wire-compatible with XLA's, so a sharding serialized by XLA becomes an
// HloSharding here:
//
//   OpSharding proto;
//   if (!proto.ParseFromString(bytes)) return absl::InvalidArgumentError("bad OpSharding");
//   TESSEL_ASSIGN_OR_RETURN(HloSharding sharding, HloShardingFromProto(proto));
#ifndef TESSEL_PARTITIONER_SHARDING_PROTO_CONVERSION_H_
#define TESSEL_PARTITIONER_SHARDING_PROTO_CONVERSION_H_

#include "absl/status/statusor.h"
#include "partitioner/sharding/device_assignment.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mesh.h"
#include "partitioner/sharding/sharding.pb.h"
#include "partitioner/sharding/tensor_sharding.h"

namespace tessel::sharding {

// XLA's encoding: maximal as a one-device tile array, tiled as OTHER with the iota fields or
// the device list, a lone replicated trailing dim as replicate_on_last_tile_dim.
OpSharding HloShardingToProto(const HloSharding& sharding);

// Errors: UNKNOWN shardings, shard groups and XLA's named_sharding (Unimplemented: Tessel
// has no form for them); malformed tile assignments (both or neither of device list and iota
// dims, a maximal sharding without exactly one device, trailing dim types other than
// manual, unreduced and replicated, replicate_on_last_tile_dim with last_tile_dims)
// (InvalidArgument). The tile shape and metadata XLA may carry are ignored.
absl::StatusOr<HloSharding> HloShardingFromProto(const OpSharding& proto);

MeshProto MeshToProto(const Mesh& mesh);
// Errors: the mesh does not validate.
absl::StatusOr<Mesh> MeshFromProto(const MeshProto& proto);

TensorShardingProto TensorShardingToProto(const TensorSharding& sharding);
// Any TensorSharding can be read; validate it against its mesh before use.
TensorSharding TensorShardingFromProto(const TensorShardingProto& proto);

DeviceAssignmentProto DeviceAssignmentToProto(const DeviceAssignment& assignment);
// Errors: computation_devices does not hold computation_count lists of replica_count ids,
// or the assignment does not validate.
absl::StatusOr<DeviceAssignment> DeviceAssignmentFromProto(const DeviceAssignmentProto& proto);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_PROTO_CONVERSION_H_
