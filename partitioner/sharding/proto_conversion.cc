// Conversions between sharding values and their protobuf messages (see proto_conversion.h).
#include "partitioner/sharding/proto_conversion.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/unknown_field_set.h"

namespace tessel::sharding {
namespace {

// XLA's field number of named_sharding, which Tessel reserves.
constexpr int kNamedShardingField = 14;

OpSharding::Type ToProtoType(SubgroupType type) {
  switch (type) {
    case SubgroupType::kManual:
      return OpSharding::MANUAL;
    case SubgroupType::kUnreduced:
      return OpSharding::UNREDUCED;
    case SubgroupType::kReplicated:
      return OpSharding::REPLICATED;
  }
  return OpSharding::REPLICATED;
}

AxisRefProto AxisRefToProto(const AxisRef& axis) {
  AxisRefProto proto;
  proto.set_name(axis.name);
  proto.set_pre_size(axis.pre_size);
  proto.set_size(axis.size);
  return proto;
}

AxisRef AxisRefFromProto(const AxisRefProto& proto) {
  return AxisRef(proto.name(), proto.pre_size(), proto.size());
}

bool HasNamedSharding(const OpSharding& proto) {
  const google::protobuf::UnknownFieldSet& unknown = proto.GetReflection()->GetUnknownFields(proto);
  for (int i = 0; i < unknown.field_count(); ++i) {
    if (unknown.field(i).number() == kNamedShardingField) return true;
  }
  return false;
}

absl::StatusOr<HloSharding> TiledFromProto(const OpSharding& proto) {
  std::vector<int64_t> dims(proto.tile_assignment_dimensions().begin(),
                            proto.tile_assignment_dimensions().end());
  const bool has_devices = proto.tile_assignment_devices_size() > 0;
  const bool has_iota = proto.iota_reshape_dims_size() > 0;
  if (has_devices == has_iota) {
    return absl::InvalidArgumentError(
        "a tiled OpSharding needs exactly one of tile_assignment_devices and iota_reshape_dims");
  }
  absl::StatusOr<TileAssignment> tiles =
      has_iota ? TileAssignment::CreateIota(
                     dims, {proto.iota_reshape_dims().begin(), proto.iota_reshape_dims().end()},
                     {proto.iota_transpose_perm().begin(), proto.iota_transpose_perm().end()})
               : TileAssignment::CreateExplicit(dims, {proto.tile_assignment_devices().begin(),
                                                       proto.tile_assignment_devices().end()});
  if (!tiles.ok()) return tiles.status();
  std::vector<SubgroupType> types;
  if (proto.replicate_on_last_tile_dim()) {
    if (proto.last_tile_dims_size() > 0) {
      return absl::InvalidArgumentError(
          "replicate_on_last_tile_dim and last_tile_dims describe the same dims; set one");
    }
    types.push_back(SubgroupType::kReplicated);
  }
  for (int type : proto.last_tile_dims()) {
    switch (type) {
      case OpSharding::MANUAL:
        types.push_back(SubgroupType::kManual);
        break;
      case OpSharding::UNREDUCED:
        types.push_back(SubgroupType::kUnreduced);
        break;
      case OpSharding::REPLICATED:
        types.push_back(SubgroupType::kReplicated);
        break;
      default:
        return absl::InvalidArgumentError(absl::StrCat("last_tile_dims type ",
                                                       OpSharding::Type_Name(type),
                                                       " is not manual, unreduced or replicated"));
    }
  }
  return HloSharding::Tiled(*std::move(tiles), std::move(types));
}

}  // namespace

OpSharding HloShardingToProto(const HloSharding& sharding) {
  OpSharding proto;
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
      proto.set_type(OpSharding::REPLICATED);
      return proto;
    case HloSharding::Kind::kManual:
      proto.set_type(OpSharding::MANUAL);
      return proto;
    case HloSharding::Kind::kUnreduced:
      proto.set_type(OpSharding::UNREDUCED);
      return proto;
    case HloSharding::Kind::kMaximal:
      proto.set_type(OpSharding::MAXIMAL);
      proto.add_tile_assignment_dimensions(1);
      proto.add_tile_assignment_devices(sharding.device());
      return proto;
    case HloSharding::Kind::kTuple:
      proto.set_type(OpSharding::TUPLE);
      for (const HloSharding& element : sharding.tuple_elements()) {
        *proto.add_tuple_shardings() = HloShardingToProto(element);
      }
      return proto;
    case HloSharding::Kind::kTiled:
      break;
  }
  proto.set_type(OpSharding::OTHER);
  const TileAssignment& tiles = sharding.tile_assignment();
  for (int64_t dim : tiles.dims()) proto.add_tile_assignment_dimensions(dim);
  if (tiles.IsIota()) {
    for (int64_t dim : tiles.reshape_dims()) proto.add_iota_reshape_dims(dim);
    for (int p : tiles.perm()) proto.add_iota_transpose_perm(p);
  } else {
    for (int64_t device : tiles.Devices()) proto.add_tile_assignment_devices(device);
  }
  if (sharding.ReplicateOnLastTileDim()) {
    proto.set_replicate_on_last_tile_dim(true);
  } else {
    for (SubgroupType type : sharding.subgroup_types()) proto.add_last_tile_dims(ToProtoType(type));
  }
  return proto;
}

absl::StatusOr<HloSharding> HloShardingFromProto(const OpSharding& proto) {
  if (HasNamedSharding(proto)) {
    return absl::UnimplementedError("OpSharding.named_sharding (field 14) is not supported");
  }
  if (proto.is_shard_group()) {
    return absl::UnimplementedError(
        absl::StrCat("shard group ", proto.shard_group_id(), " is not supported"));
  }
  switch (proto.type()) {
    case OpSharding::REPLICATED:
      return HloSharding::Replicated();
    case OpSharding::MANUAL:
      return HloSharding::Manual();
    case OpSharding::UNREDUCED:
      return HloSharding::Unreduced();
    case OpSharding::MAXIMAL:
      if (proto.tile_assignment_devices_size() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "a maximal OpSharding names one device, got ", proto.tile_assignment_devices_size()));
      }
      return HloSharding::Maximal(proto.tile_assignment_devices(0));
    case OpSharding::TUPLE: {
      std::vector<HloSharding> elements;
      for (int i = 0; i < proto.tuple_shardings_size(); ++i) {
        absl::StatusOr<HloSharding> element = HloShardingFromProto(proto.tuple_shardings(i));
        if (!element.ok()) {
          return absl::Status(element.status().code(),
                              absl::StrCat("tuple element ", i, ": ", element.status().message()));
        }
        elements.push_back(*std::move(element));
      }
      return HloSharding::Tuple(std::move(elements));
    }
    case OpSharding::OTHER:
      return TiledFromProto(proto);
    case OpSharding::UNKNOWN:
      return absl::UnimplementedError("UNKNOWN shardings have no Tessel form");
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("OpSharding type ", proto.type(), " is not known"));
  }
}

MeshProto MeshToProto(const Mesh& mesh) {
  MeshProto proto;
  for (const MeshAxis& axis : mesh.axes) {
    MeshAxisProto* axis_proto = proto.add_axes();
    axis_proto->set_name(axis.name);
    axis_proto->set_size(axis.size);
  }
  for (int64_t id : mesh.device_ids) proto.add_device_ids(id);
  return proto;
}

absl::StatusOr<Mesh> MeshFromProto(const MeshProto& proto) {
  std::vector<MeshAxis> axes;
  for (const MeshAxisProto& axis : proto.axes()) axes.push_back({axis.name(), axis.size()});
  return Mesh::Create(std::move(axes), {proto.device_ids().begin(), proto.device_ids().end()});
}

TensorShardingProto TensorShardingToProto(const TensorSharding& sharding) {
  TensorShardingProto proto;
  proto.set_mesh_name(sharding.mesh_name);
  for (const DimSharding& dim : sharding.dims) {
    DimShardingProto* dim_proto = proto.add_dims();
    for (const AxisRef& axis : dim.axes) *dim_proto->add_axes() = AxisRefToProto(axis);
    dim_proto->set_is_closed(dim.is_closed);
    if (dim.priority) dim_proto->set_priority(*dim.priority);
  }
  for (const AxisRef& axis : sharding.replicated_axes) {
    *proto.add_replicated_axes() = AxisRefToProto(axis);
  }
  for (const AxisRef& axis : sharding.unreduced_axes) {
    *proto.add_unreduced_axes() = AxisRefToProto(axis);
  }
  return proto;
}

TensorSharding TensorShardingFromProto(const TensorShardingProto& proto) {
  TensorSharding sharding;
  sharding.mesh_name = proto.mesh_name();
  for (const DimShardingProto& dim_proto : proto.dims()) {
    DimSharding dim;
    for (const AxisRefProto& axis : dim_proto.axes()) dim.axes.push_back(AxisRefFromProto(axis));
    dim.is_closed = dim_proto.is_closed();
    if (dim_proto.has_priority()) dim.priority = dim_proto.priority();
    sharding.dims.push_back(std::move(dim));
  }
  for (const AxisRefProto& axis : proto.replicated_axes()) {
    sharding.replicated_axes.push_back(AxisRefFromProto(axis));
  }
  for (const AxisRefProto& axis : proto.unreduced_axes()) {
    sharding.unreduced_axes.push_back(AxisRefFromProto(axis));
  }
  return sharding;
}

DeviceAssignmentProto DeviceAssignmentToProto(const DeviceAssignment& assignment) {
  DeviceAssignmentProto proto;
  proto.set_replica_count(assignment.replica_count);
  proto.set_computation_count(assignment.computation_count);
  for (int64_t c = 0; c < assignment.computation_count; ++c) {
    DeviceAssignmentProto::ComputationDevice* computation = proto.add_computation_devices();
    for (int64_t r = 0; r < assignment.replica_count; ++r) {
      computation->add_replica_device_ids(assignment.Device(r, c));
    }
  }
  return proto;
}

absl::StatusOr<DeviceAssignment> DeviceAssignmentFromProto(const DeviceAssignmentProto& proto) {
  DeviceAssignment assignment{proto.replica_count(), proto.computation_count(), {}};
  if (proto.computation_devices_size() != proto.computation_count()) {
    return absl::InvalidArgumentError(
        absl::StrCat("device assignment has ", proto.computation_count(), " computations but ",
                     proto.computation_devices_size(), " device lists"));
  }
  for (int c = 0; c < proto.computation_devices_size(); ++c) {
    if (proto.computation_devices(c).replica_device_ids_size() != proto.replica_count()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "computation ", c, " lists ", proto.computation_devices(c).replica_device_ids_size(),
          " devices, expected one per replica (", proto.replica_count(), ")"));
    }
  }
  if (proto.replica_count() > 0 && proto.computation_count() > 0) {
    assignment.devices.resize(int64_t{proto.replica_count()} * proto.computation_count());
    for (int r = 0; r < proto.replica_count(); ++r) {
      for (int c = 0; c < proto.computation_count(); ++c) {
        assignment.devices[r * proto.computation_count() + c] =
            proto.computation_devices(c).replica_device_ids(r);
      }
    }
  }
  absl::Status status = assignment.Validate();
  if (!status.ok()) return status;
  return assignment;
}

}  // namespace tessel::sharding
