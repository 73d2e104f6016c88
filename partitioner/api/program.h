// A Tessel program: one module of `hlo` and `tessel` ops whose entry function (`@main`)
// takes and returns tensors, some of them with shardings. GraphBuilder::Build makes one;
// FromMlirText and FromMlirFile load one. The partitioner and the runtime take programs.
//
//   TESSEL_ASSIGN_OR_RETURN(Program program, Program::FromMlirFile("examples/mlp/mlp.mlir"));
//   for (const TensorType& type : program.parameter_types()) std::cout << type << "\n";
//   TESSEL_ASSIGN_OR_RETURN(std::vector<std::optional<Sharding>> shardings,
//                           program.parameter_shardings());
//   std::cout << program.ToMlirText();
//
// A Program owns its MLIR context and module and is move-only. No MLIR type appears here;
// compilers that embed Tessel reach the module through program_mlir.h.
#ifndef TESSEL_PARTITIONER_API_PROGRAM_H_
#define TESSEL_PARTITIONER_API_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/tensor_type.h"

namespace tessel {

class Program {
 public:
  // The name of the entry function of every program the API builds.
  static constexpr absl::string_view kEntryFunctionName = "main";
  // The module attribute that marks a partitioned program:
  // {num_partitions = 8 : i64, parameter_types = [...], result_types = [...]}.
  static constexpr absl::string_view kPartitionedAttrName = "tessel.partitioned";

  // Parses and verifies MLIR text. The entry function is `@main`, or the only function of
  // the module; its parameters and results must be statically shaped tensors of the
  // element types in ElementType. Fails with InvalidArgument carrying the diagnostics with
  // their line and column ("program.mlir:3:14: error: ..."). StableHLO with Shardy's
  // annotations, as `jax.jit(f).lower(...).as_text()` prints it, is imported
  // (docs/stablehlo.md).
  static absl::StatusOr<Program> FromMlirText(absl::string_view text);
  // Reads `path` and parses it as above; NotFound if the file cannot be read.
  static absl::StatusOr<Program> FromMlirFile(absl::string_view path);

  // Imports XLA HLO text, as JAX, TensorFlow or PyTorch/XLA dump it (docs/hlo.md): the
  // ENTRY computation becomes the entry function `@main`, and the GSPMD or Shardy shardings
  // in the text become the program's meshes and shardings. Fails with InvalidArgument
  // carrying located diagnostics ("program.hlo:3:5: error: ...") for text that does not
  // import, or shardings that do not convert.
  static absl::StatusOr<Program> FromHloText(absl::string_view text);
  // Reads `path` and imports it as above; NotFound if the file cannot be read.
  static absl::StatusOr<Program> FromHloFile(absl::string_view path);

  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  // The module in MLIR's textual form, without locations. Parsing it with FromMlirText gives
  // a program that prints the same text.
  std::string ToMlirText() const;
  // The same with every op's location (`loc(...)`, collected at the end of the text): the
  // call sites and names a GraphBuilder gave its ops, a file's positions. Tools that read the
  // text (`tessel explain`, `tessel viz`, `tessel report`) then name values as the program
  // does: `h` at `model.cc:42` for `b.Named("h", ...)` on line 42.
  std::string ToMlirTextWithLocations() const;

  // The name of the entry function.
  const std::string& entry_function() const;

  // The entry function's signature. For a partitioned program these are the types of one
  // device's pieces; see global_parameter_types().
  const std::vector<TensorType>& parameter_types() const;
  const std::vector<TensorType>& result_types() const;

  // Whether this is the output of Partition(), which records in the module (attribute
  // `tessel.partitioned`) the device count and the global signature, so that a partitioned
  // program printed and loaded again still runs on its devices.
  bool is_partitioned() const;
  // The number of devices a partitioned program runs on; 1 otherwise.
  int64_t num_partitions() const;
  // The types of the whole tensors Run() takes and returns: the parameter and result types
  // of the program before partitioning (the same as parameter_types() and result_types()
  // for a program that is not partitioned).
  const std::vector<TensorType>& global_parameter_types() const;
  const std::vector<TensorType>& global_result_types() const;

  // The sharding of each parameter (result), nullopt where none is given. Sub-axes are
  // AxisRef sub-axes. Fails only if the module's sharding does not fit its mesh.
  absl::StatusOr<std::vector<std::optional<Sharding>>> parameter_shardings() const;
  absl::StatusOr<std::vector<std::optional<Sharding>>> result_shardings() const;

  // Every mesh the module declares, in order.
  const std::vector<Mesh>& meshes() const;

  // The name the source gives each parameter (an MLIR name location `loc("x")`, an HLO
  // parameter's name, GraphBuilder::Named); empty where it has none (program_edit.cc).
  std::vector<std::string> parameter_names() const;

  // A copy of this program whose entry function has `parameters[i]` as the sharding of
  // parameter i and `results[i]` as that of result i, where given; nullopt, or an index past
  // the end of the list, keeps what the program has. A mesh the shardings use that the
  // program does not declare is declared in the copy. Fails with InvalidArgument for more
  // shardings than parameters or results, a sharding that does not fit its value's rank, a
  // mesh that the program declares under the same name with other axes, and on a
  // partitioned program (FailedPrecondition).
  absl::StatusOr<Program> WithShardings(
      const std::vector<std::optional<Sharding>>& parameters,
      const std::vector<std::optional<Sharding>>& results = {}) const;

  // The module as XLA HLO text (docs/hlo.md): the entry function becomes the ENTRY
  // computation; a partitioned program's collectives get explicit replica groups. Fails
  // with InvalidArgument naming the op that HLO cannot express.
  absl::StatusOr<std::string> ToHloText() const;

 private:
  friend class ProgramAccess;  // program_mlir.h
  class Impl;
  explicit Program(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_PROGRAM_H_
