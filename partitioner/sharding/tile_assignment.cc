// Tile assignments in explicit and canonical iota form (see tile_assignment.h).
#include "partitioner/sharding/tile_assignment.h"

#include <algorithm>
#include <cassert>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "partitioner/sharding/factorization.h"
#include "support/mesh_limits.h"

namespace tessel::sharding {
namespace {

int64_t Product(const std::vector<int64_t>& sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) product *= size;
  return product;
}

absl::Status ValidateDims(const std::vector<int64_t>& dims, absl::string_view what) {
  if (dims.empty()) return absl::InvalidArgumentError(absl::StrCat(what, " must not be empty"));
  int64_t total = 1;
  for (int64_t dim : dims) {
    if (dim < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " [", absl::StrJoin(dims, ","), "] has a size below 1"));
    }
    // A tile assignment holds at most a mesh's devices, so that HLO text cannot bring in a
    // mesh MLIR text would refuse, and so that the products of dims below cannot overflow.
    if (dim > kMaxMeshDevices / total) {
      return absl::InvalidArgumentError(absl::StrCat(what, " [", absl::StrJoin(dims, ","),
                                                     "] hold more than ", kMaxMeshDevices,
                                                     " devices"));
    }
    total *= dim;
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<int64_t> Unravel(int64_t linear_index, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    index[i] = linear_index % shape[i];
    linear_index /= shape[i];
  }
  return index;
}

int64_t Ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& shape) {
  int64_t linear = 0;
  for (size_t i = 0; i < shape.size(); ++i) linear = linear * shape[i] + index[i];
  return linear;
}

namespace {

// The iota factors of an explicit device array, where it is one written out: every array
// dim is cut into runs along which the id grows by a fixed stride (minor runs first, each
// as long as the ids stay on the line), and the array must be exactly the sum of
// run index times stride, with strides that count every id once (a mixed radix of N).
std::optional<IotaFactors> FactorsOfList(const std::vector<int64_t>& dims,
                                         const std::vector<int64_t>& devices) {
  if (devices.empty() || devices[0] != 0) return std::nullopt;
  struct Run {
    int dim;
    int64_t size, stride;
  };
  std::vector<Run> runs;  // per dim, minor to major
  int64_t dim_stride = static_cast<int64_t>(devices.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    dim_stride /= dims[d];
    int64_t left = dims[d], step = 1;  // step: array index step of the next run
    while (left > 1) {
      const int64_t stride = devices[step * dim_stride];
      if (stride <= 0) return std::nullopt;
      int64_t size = 0;
      for (int64_t c = left; c > 1 && size == 0; --c) {
        if (left % c != 0) continue;
        bool on_line = true;
        for (int64_t j = 2; j < c && on_line; ++j) {
          on_line = devices[j * step * dim_stride] == j * stride;
        }
        if (on_line) size = c;
      }
      if (size == 0) return std::nullopt;
      runs.push_back({static_cast<int>(d), size, stride});
      step *= size;
      left /= size;
    }
  }
  // The strides, smallest first, must be 1, n1, n1*n2, ...: then the runs are the factors
  // of one arange, and the array is that arange transposed if it matches everywhere.
  std::vector<size_t> by_stride(runs.size());
  for (size_t r = 0; r < runs.size(); ++r) by_stride[r] = r;
  std::sort(by_stride.begin(), by_stride.end(),
            [&](size_t a, size_t b) { return runs[a].stride < runs[b].stride; });
  int64_t expected = 1;
  for (size_t r : by_stride) {
    if (runs[r].stride != expected) return std::nullopt;
    expected *= runs[r].size;
  }
  if (expected != static_cast<int64_t>(devices.size())) return std::nullopt;
  for (int64_t flat = 0; flat < static_cast<int64_t>(devices.size()); ++flat) {
    std::vector<int64_t> rest = Unravel(flat, dims);
    int64_t id = 0;
    for (const Run& run : runs) {  // a dim's minor runs come first
      id += (rest[run.dim] % run.size) * run.stride;
      rest[run.dim] /= run.size;
    }
    if (id != devices[flat]) return std::nullopt;
  }
  IotaFactors factors;
  std::vector<int> position(runs.size());
  for (size_t k = 0; k < by_stride.size(); ++k) {  // reshape dims, major first
    const size_t r = by_stride[by_stride.size() - 1 - k];
    position[r] = static_cast<int>(k);
    factors.reshape_dims.push_back(runs[r].size);
  }
  factors.dim_factors.resize(dims.size());
  for (size_t r = runs.size(); r-- > 0;) {  // per dim, major first
    factors.dim_factors[runs[r].dim].push_back(position[r]);
  }
  return factors;
}

}  // namespace

absl::StatusOr<TileAssignment> TileAssignment::CreateIota(std::vector<int64_t> dims,
                                                          std::vector<int64_t> reshape_dims,
                                                          std::vector<int> perm) {
  absl::Status status = ValidateDims(dims, "tile assignment dims");
  if (!status.ok()) return status;
  status = ValidateDims(reshape_dims, "iota reshape dims");
  if (!status.ok()) return status;
  if (Product(dims) != Product(reshape_dims)) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile assignment dims [", absl::StrJoin(dims, ","), "] hold ", Product(dims),
                     " devices but iota reshape dims [", absl::StrJoin(reshape_dims, ","),
                     "] hold ", Product(reshape_dims)));
  }
  if (perm.size() != reshape_dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat("iota transpose (", absl::StrJoin(perm, ","),
                                                   ") must have ", reshape_dims.size(),
                                                   " entries, one per reshape dim"));
  }
  std::vector<bool> seen(perm.size(), false);
  for (int p : perm) {
    if (p < 0 || p >= static_cast<int>(perm.size()) || seen[p]) {
      return absl::InvalidArgumentError(
          absl::StrCat("iota transpose (", absl::StrJoin(perm, ","), ") is not a permutation"));
    }
    seen[p] = true;
  }
  TileAssignment tiles;
  tiles.dims_ = std::move(dims);
  tiles.reshape_dims_ = std::move(reshape_dims);
  tiles.perm_ = std::move(perm);
  tiles.CanonicalizeIota();
  return tiles;
}

TileAssignment TileAssignment::Iota(std::vector<int64_t> dims) {
  TileAssignment tiles;
  tiles.reshape_dims_ = {Product(dims)};
  tiles.dims_ = std::move(dims);
  return tiles;
}

absl::StatusOr<TileAssignment> TileAssignment::CreateExplicit(std::vector<int64_t> dims,
                                                              std::vector<int64_t> devices) {
  absl::Status status = ValidateDims(dims, "tile assignment dims");
  if (!status.ok()) return status;
  const int64_t total = Product(dims);
  if (static_cast<int64_t>(devices.size()) != total) {
    return absl::InvalidArgumentError(absl::StrCat("tile assignment dims [",
                                                   absl::StrJoin(dims, ","), "] need ", total,
                                                   " devices, got ", devices.size()));
  }
  std::vector<bool> seen(total, false);
  for (int64_t device : devices) {
    if (device < 0 || device >= total) {
      return absl::InvalidArgumentError(
          absl::StrCat("device ", device, " is out of range [0, ", total, ")"));
    }
    if (seen[device]) {
      return absl::InvalidArgumentError(absl::StrCat("device ", device, " appears twice"));
    }
    seen[device] = true;
  }
  TileAssignment tiles;
  tiles.dims_ = std::move(dims);
  tiles.devices_ = std::move(devices);
  tiles.reshape_dims_.clear();
  tiles.perm_.clear();
  return tiles;
}

void TileAssignment::CanonicalizeIota() {
  // Drop reshape dims of size 1: they hold no devices and only clutter the permutation.
  std::vector<int> new_index(reshape_dims_.size(), -1);
  std::vector<int64_t> reshape;
  for (size_t j = 0; j < reshape_dims_.size(); ++j) {
    if (reshape_dims_[j] == 1) continue;
    new_index[j] = static_cast<int>(reshape.size());
    reshape.push_back(reshape_dims_[j]);
  }
  std::vector<int> perm;
  for (int p : perm_) {
    if (new_index[p] >= 0) perm.push_back(new_index[p]);
  }
  // Merge reshape dims j and j+1 while some transposed position reads j right before j+1:
  // they are then one contiguous run of the arange both before and after the transpose.
  bool merged = true;
  while (merged) {
    merged = false;
    for (size_t i = 0; i + 1 < perm.size(); ++i) {
      if (perm[i + 1] != perm[i] + 1) continue;
      const int j = perm[i];
      reshape[j] *= reshape[j + 1];
      reshape.erase(reshape.begin() + j + 1);
      perm.erase(perm.begin() + i + 1);
      for (int& p : perm) {
        if (p > j) --p;
      }
      merged = true;
      break;
    }
  }
  if (reshape.empty()) {
    reshape = {1};
    perm = {0};
  }
  reshape_dims_ = std::move(reshape);
  perm_ = std::move(perm);
}

int64_t TileAssignment::NumDevices() const { return Product(dims_); }

int64_t TileAssignment::At(int64_t linear_index) const {
  assert(linear_index >= 0 && linear_index < NumDevices() && "index out of range");
  if (!IsIota()) return devices_[linear_index];
  // Position in the transposed array, then the same element's position before the transpose.
  std::vector<int64_t> transposed_shape(perm_.size());
  for (size_t i = 0; i < perm_.size(); ++i) transposed_shape[i] = reshape_dims_[perm_[i]];
  std::vector<int64_t> transposed_index = Unravel(linear_index, transposed_shape);
  std::vector<int64_t> index(perm_.size());
  for (size_t i = 0; i < perm_.size(); ++i) index[perm_[i]] = transposed_index[i];
  return Ravel(index, reshape_dims_);
}

std::vector<int64_t> TileAssignment::Devices() const {
  if (!IsIota()) return devices_;
  // Walk the transposed array in row-major order with an odometer; the value at a position is
  // the dot product of its index with the reshape dims' strides.
  const size_t rank = perm_.size();
  std::vector<int64_t> strides(reshape_dims_.size(), 1);
  for (int j = static_cast<int>(reshape_dims_.size()) - 2; j >= 0; --j) {
    strides[j] = strides[j + 1] * reshape_dims_[j + 1];
  }
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> devices;
  devices.reserve(NumDevices());
  int64_t value = 0;
  for (int64_t i = 0; i < NumDevices(); ++i) {
    devices.push_back(value);
    for (int k = static_cast<int>(rank) - 1; k >= 0; --k) {
      const int j = perm_[k];
      if (++index[k] < reshape_dims_[j]) {
        value += strides[j];
        break;
      }
      value -= (reshape_dims_[j] - 1) * strides[j];
      index[k] = 0;
    }
  }
  return devices;
}

bool TileAssignment::IsArange() const {
  if (IsIota()) return reshape_dims_.size() == 1;
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

TileAssignment TileAssignment::Reshape(std::vector<int64_t> dims) const {
  assert(Product(dims) == NumDevices() && "reshape changes the number of devices");
  TileAssignment result = *this;
  result.dims_ = std::move(dims);
  return result;
}

std::optional<IotaFactors> TileAssignment::Factors() const {
  if (!IsIota()) return FactorsOfList(dims_, devices_);
  std::vector<int64_t> transposed_shape(perm_.size());
  for (size_t i = 0; i < perm_.size(); ++i) transposed_shape[i] = reshape_dims_[perm_[i]];
  std::optional<Factorization> common = CommonFactorization(dims_, transposed_shape);
  if (!common) return std::nullopt;
  // Refine every reshape dim into the factors of its transposed position, in order: the array
  // is then arange over the refined dims, each array dim a run of whole factors.
  const int num_factors = static_cast<int>(common->factors.size());
  std::vector<int> inverse(perm_.size());
  for (size_t i = 0; i < perm_.size(); ++i) inverse[perm_[i]] = static_cast<int>(i);
  IotaFactors factors;
  std::vector<int> position(num_factors);
  for (size_t j = 0; j < reshape_dims_.size(); ++j) {
    for (int f = 0; f < num_factors; ++f) {
      if (common->b_dim[f] != inverse[j]) continue;
      position[f] = static_cast<int>(factors.reshape_dims.size());
      factors.reshape_dims.push_back(common->factors[f]);
    }
  }
  factors.dim_factors.resize(dims_.size());
  for (int f = 0; f < num_factors; ++f)
    factors.dim_factors[common->a_dim[f]].push_back(position[f]);
  return factors;
}

TileAssignment TileAssignment::FromFactors(std::vector<int64_t> dims, const IotaFactors& factors) {
  std::vector<int> perm;
  for (const std::vector<int>& dim : factors.dim_factors)
    perm.insert(perm.end(), dim.begin(), dim.end());
  std::vector<int64_t> reshape = factors.reshape_dims;
  if (reshape.empty()) {
    reshape = {1};
    perm = {0};
  }
  absl::StatusOr<TileAssignment> result =
      CreateIota(std::move(dims), std::move(reshape), std::move(perm));
  assert(result.ok() && "factors describe a valid iota");
  return *std::move(result);
}

TileAssignment TileAssignment::Transpose(const std::vector<int>& perm) const {
  assert(perm.size() == dims_.size() && "transpose needs one entry per dim");
  std::vector<int64_t> new_dims(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) new_dims[i] = dims_[perm[i]];
  // An explicit array stays explicit, as written, even where it is an iota.
  if (std::optional<IotaFactors> factors = IsIota() ? Factors() : std::nullopt) {
    // Transposing the array only reorders whole groups of factors.
    IotaFactors transposed{factors->reshape_dims, {}};
    for (int dim : perm) transposed.dim_factors.push_back(factors->dim_factors[dim]);
    return FromFactors(std::move(new_dims), transposed);
  }
  std::vector<int64_t> devices = Devices();
  std::vector<int64_t> new_devices(devices.size());
  for (int64_t i = 0; i < static_cast<int64_t>(devices.size()); ++i) {
    std::vector<int64_t> new_index = Unravel(i, new_dims);
    std::vector<int64_t> index(dims_.size());
    for (size_t k = 0; k < perm.size(); ++k) index[perm[k]] = new_index[k];
    new_devices[i] = devices[Ravel(index, dims_)];
  }
  TileAssignment result;
  result.dims_ = std::move(new_dims);
  result.devices_ = std::move(new_devices);
  result.reshape_dims_.clear();
  result.perm_.clear();
  return result;
}

std::string TileAssignment::ToString() const {
  std::string text = absl::StrCat("devices=[", absl::StrJoin(dims_, ","), "]");
  if (!IsIota()) return text + absl::StrJoin(devices_, ",");
  absl::StrAppend(&text, "<=[", absl::StrJoin(reshape_dims_, ","), "]");
  if (reshape_dims_.size() > 1) absl::StrAppend(&text, "T(", absl::StrJoin(perm_, ","), ")");
  return text;
}

}  // namespace tessel::sharding
