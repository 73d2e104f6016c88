// The random program generator's indexing ops: dynamic slices and updates, gather and
// scatter with their index layouts, sort and top_k (random_program_generator.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/differential/random_program_generator.h"

namespace tessel::testing::random_program_internal {

std::vector<std::string> Generator::Offsets(const Shape& shape, const Shape& sizes) {
  const int64_t rank = shape.size();
  std::string shared;
  if (RoomForArguments() && Chance(25)) {
    shared = NewIndexArgument({}, {static_cast<int32_t>(Uniform(-1, 3))});
  }
  std::vector<std::string> offsets;
  for (int64_t d = 0; d < rank; ++d) {
    if (!shared.empty() && Chance(60)) {
      offsets.push_back(shared);
    } else {
      offsets.push_back(Constant(Uniform(-1, shape[d] - sizes[d] + 1), "i32"));
    }
  }
  return offsets;
}

bool Generator::EmitDynamicSlice(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  Shape shape = x.shape;
  for (int64_t d = 0; d < rank; ++d) shape[d] = Uniform(1, x.shape[d]);
  std::vector<std::string> offsets = Offsets(x.shape, shape);
  std::vector<std::string> offset_types(rank, "tensor<i32>");
  std::string name = Fresh();
  Define(absl::StrCat(name, " = hlo.dynamic_slice ", x.name, ", ", absl::StrJoin(offsets, ", "),
                      ", sizes = ", List(shape), " : (", Type(x.shape), ", ",
                      absl::StrJoin(offset_types, ", "), ") -> ", Type(shape)),
         {name, shape, x.magnitude});
  return true;
}

bool Generator::EmitDynamicUpdateSlice(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  // The update: a pool value that fits (other than x), else a new argument.
  std::vector<const Value*> fits;
  for (const Value& v : pool_) {
    if (v.shape.size() != x.shape.size() || v.name == x.name) continue;
    bool fit = true;
    for (int64_t d = 0; d < rank; ++d) fit &= v.shape[d] <= x.shape[d];
    if (fit) fits.push_back(&v);
  }
  Value update;
  if (!fits.empty() && (Chance(50) || !RoomForArguments())) {
    update = *fits[Uniform(0, fits.size() - 1)];
  } else if (RoomForArguments()) {
    Shape shape = x.shape;
    for (int64_t d = 0; d < rank; ++d) shape[d] = Uniform(1, x.shape[d]);
    update = NewArgument(shape);
  } else {
    return false;
  }
  std::vector<std::string> offsets = Offsets(x.shape, update.shape);
  std::vector<std::string> offset_types(rank, "tensor<i32>");
  std::string name = Fresh();
  Define(absl::StrCat(name, " = hlo.dynamic_update_slice ", x.name, ", ", update.name, ", ",
                      absl::StrJoin(offsets, ", "), " : (", Type(x.shape), ", ", Type(update.shape),
                      ", ", absl::StrJoin(offset_types, ", "), ") -> ", Type(x.shape)),
         {name, x.shape, std::max(x.magnitude, update.magnitude)});
  return true;
}

Generator::IndexLayout Generator::RandomIndexLayout(int64_t count, int64_t entries,
                                                    int64_t batching) {
  IndexLayout layout;
  layout.batch_shape = {count};
  int64_t batching_in_batch = -1;
  if (batching > 0) {
    batching_in_batch = Uniform(0, 1);
    layout.batch_shape.insert(layout.batch_shape.begin() + batching_in_batch, batching);
  }
  const int64_t n = layout.batch_shape.size();
  if (entries == 1 && Chance(30)) {
    layout.index_vector_dim = n;  // implicit trailing dim of size 1
    layout.indices_shape = layout.batch_shape;
  } else {
    layout.index_vector_dim = Chance(70) ? n : Uniform(0, n);
    layout.indices_shape = layout.batch_shape;
    layout.indices_shape.insert(layout.indices_shape.begin() + layout.index_vector_dim, entries);
  }
  layout.batching_in_batch = batching_in_batch;
  if (batching_in_batch >= 0) {
    layout.batching_position = batching_in_batch >= layout.index_vector_dim &&
                                       layout.indices_shape.size() > layout.batch_shape.size()
                                   ? batching_in_batch + 1
                                   : batching_in_batch;
  }
  return layout;
}

std::string Generator::IndicesTensor(const IndexLayout& layout,
                                     const std::vector<std::vector<int32_t>>& vectors) {
  std::vector<int32_t> values(NumElements(layout.indices_shape));
  const bool implicit = layout.indices_shape.size() == layout.batch_shape.size();
  const int64_t rank = layout.indices_shape.size();
  for (size_t p = 0; p < vectors.size(); ++p) {
    // The batch coordinates of position p.
    std::vector<int64_t> coords(layout.batch_shape.size());
    int64_t rest = p;
    for (int64_t d = layout.batch_shape.size() - 1; d >= 0; --d) {
      coords[d] = rest % layout.batch_shape[d];
      rest /= layout.batch_shape[d];
    }
    for (size_t e = 0; e < vectors[p].size(); ++e) {
      std::vector<int64_t> full = coords;
      if (!implicit) full.insert(full.begin() + layout.index_vector_dim, e);
      int64_t flat = 0;
      for (int64_t d = 0; d < rank; ++d) flat = flat * layout.indices_shape[d] + full[d];
      values[flat] = vectors[p][e];
    }
  }
  return IndexTensor(layout.indices_shape, values);
}

std::vector<int64_t> Generator::RandomPositions(int64_t count, int64_t total) {
  std::vector<int64_t> all(total);
  for (int64_t i = 0; i < total; ++i) all[i] = i;
  std::shuffle(all.begin(), all.end(), rng_);
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

bool Generator::EmitGather(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  int64_t batching_dim = rank >= 2 && Chance(30) ? Uniform(0, rank - 1) : -1;
  std::vector<int64_t> candidates;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != batching_dim) candidates.push_back(d);
  }
  std::vector<int64_t> index_map = RandomSubset(candidates, 2);
  std::vector<int64_t> slice(rank), collapsed, offset_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    bool indexed = std::count(index_map.begin(), index_map.end(), d) > 0;
    if (d == batching_dim) {
      slice[d] = 1;
    } else if (indexed && Chance(50)) {
      slice[d] = 1;
      collapsed.push_back(d);
    } else {
      slice[d] = indexed || Chance(40) ? Uniform(1, x.shape[d]) : x.shape[d];
      offset_sizes.push_back(slice[d]);
    }
  }
  IndexLayout layout = RandomIndexLayout(Uniform(1, 4), index_map.size(),
                                         batching_dim >= 0 ? x.shape[batching_dim] : 0);
  const int64_t result_rank = layout.batch_shape.size() + offset_sizes.size();
  std::vector<int64_t> offset_dims = RandomPositions(offset_sizes.size(), result_rank);
  Shape shape(result_rank);
  size_t next_offset = 0, next_batch = 0;
  for (int64_t d = 0; d < result_rank; ++d) {
    bool offset = next_offset < offset_dims.size() && offset_dims[next_offset] == d;
    shape[d] = offset ? offset_sizes[next_offset++] : layout.batch_shape[next_batch++];
  }
  if (NumElements(shape) > kMaxElements) return false;
  std::vector<std::vector<int32_t>> vectors(NumElements(layout.batch_shape));
  for (auto& vector : vectors) {
    for (int64_t d : index_map) {
      // Out of range by one sometimes: gather clamps.
      vector.push_back(static_cast<int32_t>(Uniform(-1, x.shape[d] - slice[d] + 1)));
    }
  }
  std::string indices = IndicesTensor(layout, vectors);
  std::string dims = absl::StrCat(", slice_sizes = ", List(slice));
  if (!offset_dims.empty()) absl::StrAppend(&dims, ", offset_dims = ", List(offset_dims));
  if (!collapsed.empty()) absl::StrAppend(&dims, ", collapsed_slice_dims = ", List(collapsed));
  if (batching_dim >= 0) {
    absl::StrAppend(&dims, ", operand_batching_dims = [", batching_dim,
                    "], start_indices_batching_dims = [", layout.batching_position, "]");
  }
  absl::StrAppend(&dims, ", start_index_map = ", List(index_map),
                  ", index_vector_dim = ", layout.index_vector_dim);
  std::string name = Fresh();
  Define(absl::StrCat(name, " = hlo.gather ", x.name, "[", indices, "]", dims, " : (",
                      Type(x.shape), ", ", Type(layout.indices_shape, "i32"), ") -> ", Type(shape)),
         {name, shape, x.magnitude});
  return true;
}

bool Generator::EmitScatter(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  const bool overwrite = Chance(35);
  int64_t batching_dim = rank >= 2 && Chance(30) ? Uniform(0, rank - 1) : -1;
  std::vector<int64_t> candidates;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != batching_dim) candidates.push_back(d);
  }
  std::vector<int64_t> to_operand = RandomSubset(candidates, 2);
  std::vector<int64_t> window(rank), inserted, window_sizes;
  int64_t positions = 1;  // distinct in-range index vectors
  for (int64_t d = 0; d < rank; ++d) {
    bool indexed = std::count(to_operand.begin(), to_operand.end(), d) > 0;
    if (indexed) positions *= x.shape[d];
    if (d == batching_dim) {
      window[d] = 1;
    } else if (indexed && Chance(50)) {
      window[d] = 1;
      inserted.push_back(d);
    } else {
      window[d] = indexed ? (overwrite ? 1 : Uniform(1, x.shape[d]))
                          : (Chance(60) ? x.shape[d] : Uniform(1, x.shape[d]));
      window_sizes.push_back(window[d]);
    }
  }
  int64_t count = Uniform(1, 4);
  if (overwrite) count = std::min(count, positions);
  IndexLayout layout =
      RandomIndexLayout(count, to_operand.size(), batching_dim >= 0 ? x.shape[batching_dim] : 0);
  const int64_t updates_rank = layout.batch_shape.size() + window_sizes.size();
  std::vector<int64_t> window_dims = RandomPositions(window_sizes.size(), updates_rank);
  Shape updates_shape(updates_rank);
  size_t next_window = 0, next_batch = 0;
  for (int64_t d = 0; d < updates_rank; ++d) {
    bool in_window = next_window < window_dims.size() && window_dims[next_window] == d;
    updates_shape[d] = in_window ? window_sizes[next_window++] : layout.batch_shape[next_batch++];
  }
  if (NumElements(updates_shape) > kMaxElements) return false;
  const int64_t vector_count = NumElements(layout.batch_shape);
  std::vector<std::vector<int32_t>> vectors(vector_count);
  if (overwrite) {
    // Each batching group (or the whole batch) gets `count` distinct positions.
    std::vector<std::vector<int32_t>> all;
    for (int64_t p = 0; p < positions; ++p) {
      std::vector<int32_t> vector;
      int64_t rest = p;
      for (int64_t d : to_operand) {
        vector.push_back(static_cast<int32_t>(rest % x.shape[d]));
        rest /= x.shape[d];
      }
      all.push_back(vector);
    }
    // Batch positions run row-major over batch_shape; those of one batching group share
    // the batching coordinate, and within a group the `count` positions are distinct.
    std::vector<std::vector<int32_t>> chosen;
    const int64_t groups = vector_count / count;
    for (int64_t g = 0; g < groups; ++g) {
      std::shuffle(all.begin(), all.end(), rng_);
      for (int64_t i = 0; i < count; ++i) chosen.push_back(all[i]);
    }
    // chosen[g * count + i] is for batching coordinate g and count position i.
    for (int64_t p = 0; p < vector_count; ++p) {
      int64_t g = 0, i = p;
      if (layout.batching_in_batch >= 0) {
        const int64_t size = layout.batch_shape[1];
        const int64_t a = p / size, b = p % size;
        g = layout.batching_in_batch == 0 ? a : b;
        i = layout.batching_in_batch == 0 ? b : a;
      }
      vectors[p] = chosen[g * count + i];
    }
  } else {
    for (auto& vector : vectors) {
      for (int64_t d : to_operand) {
        vector.push_back(static_cast<int32_t>(Uniform(-1, x.shape[d] - window[d] + 1)));
      }
    }
  }
  std::optional<Value> updates = OfShape(updates_shape);
  if (!updates) return false;
  double magnitude = overwrite ? std::max(x.magnitude, updates->magnitude)
                               : x.magnitude + updates->magnitude * vector_count;
  if (IsFloat() && magnitude > kMaxMagnitude) return false;
  std::string indices = IndicesTensor(layout, vectors);
  std::string dims;
  if (!window_dims.empty()) absl::StrAppend(&dims, ", update_window_dims = ", List(window_dims));
  if (!inserted.empty()) absl::StrAppend(&dims, ", inserted_window_dims = ", List(inserted));
  if (batching_dim >= 0) {
    absl::StrAppend(&dims, ", input_batching_dims = [", batching_dim,
                    "], scatter_indices_batching_dims = [", layout.batching_position, "]");
  }
  absl::StrAppend(&dims, ", scatter_dims_to_operand_dims = ", List(to_operand),
                  ", index_vector_dim = ", layout.index_vector_dim);
  if (overwrite && Chance(50)) absl::StrAppend(&dims, " unique_indices");
  std::string name = Fresh();
  Define(absl::StrCat(name, " = hlo.scatter(", x.name, ") indices(", indices, ") updates(",
                      updates->name, ")", dims, " : (", Type(x.shape), ", ",
                      Type(layout.indices_shape, "i32"), ", ", Type(updates_shape), ") -> ",
                      Type(x.shape), " update ", BinaryRegion(overwrite ? "" : "add", element_)),
         {name, x.shape, magnitude});
  return true;
}

bool Generator::EmitSort(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  int64_t dim = Uniform(0, rank - 1);
  const std::string direction = Chance(50) ? "LT" : "GT";
  std::string name = Fresh();
  if (Chance(50)) {
    bool stable = Chance(50);
    Define(absl::StrCat(name, " = hlo.sort(", x.name, ") dimension = ", dim,
                        stable ? " is_stable" : "", " : ", Type(x.shape), " comparator ",
                        ComparatorRegion(direction, 1)),
           {name, x.shape, x.magnitude});
    return true;
  }
  Value y;
  if (Chance(40)) {
    std::string iota = Fresh();
    Emit(absl::StrCat(iota, " = hlo.iota dim = ", dim, " : ", Type(x.shape)));
    y = {iota, x.shape, static_cast<double>(x.shape[dim])};
  } else {
    y = SameShape(x);
  }
  Emit(absl::StrCat(name, ":2 = hlo.sort(", x.name, ", ", y.name, ") dimension = ", dim,
                    " is_stable : ", Type(x.shape), ", ", Type(x.shape), " comparator ",
                    ComparatorRegion(direction, 2)));
  pool_.push_back({absl::StrCat(name, "#0"), x.shape, x.magnitude});
  pool_.push_back({absl::StrCat(name, "#1"), x.shape, y.magnitude});
  return true;
}

bool Generator::EmitTopK(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  int64_t k = Uniform(1, std::min<int64_t>(x.shape.back(), 4));
  Shape shape = x.shape;
  shape.back() = k;
  std::string name = Fresh();
  Emit(absl::StrCat(name, ":2 = hlo.top_k ", x.name, ", k = ", k, Chance(30) ? " smallest" : "",
                    " : ", Type(x.shape)));
  pool_.push_back({absl::StrCat(name, "#0"), shape, x.magnitude});
  std::string indices = absl::StrCat(name, "#1");
  if (IsFloat()) {
    std::string converted = Fresh();
    Emit(absl::StrCat(converted, " = hlo.convert ", indices, " : (", Type(shape, "i32"), ") -> ",
                      Type(shape)));
    indices = converted;
  }
  pool_.push_back({indices, shape, static_cast<double>(x.shape.back())});
  return true;
}

}  // namespace tessel::testing::random_program_internal
