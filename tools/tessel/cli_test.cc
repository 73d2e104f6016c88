// Tests of the `tessel` CLI's building blocks: argument parsing and exit codes, format
// detection and program loading, and the checks `tessel run` makes on its inputs before it
// executes anything.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/npy.h"
#include "runtime/random_inputs.h"
#include "runtime/tensor.h"
#include "support/status_matchers.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/did_you_mean.h"
#include "tools/tessel/program.h"
#include "tools/tessel/run_inputs.h"
#include "tools/tessel/subcommand.h"
#include "tools/tessel/subcommands.h"

// A boolean flag, so that the parser's --name / --noname forms have something to set.
ABSL_FLAG(bool, cli_test_verbose, false, "Test-only boolean flag.");
// The outputs of partition and run, which -o names.
ABSL_DECLARE_FLAG(std::string, output);
ABSL_DECLARE_FLAG(std::string, output_dir);

namespace tessel::cli {
namespace {

using runtime::Tensor;
using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / name).string();
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A subcommand with one flag of each kind the parser treats differently.
Subcommand TestCommand() {
  Subcommand command;
  command.name = "test";
  command.synopsis = "test FILE";
  command.summary = "A subcommand for tests.";
  command.flags = {"function", "seed", "cli_test_verbose"};
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream&) {
    out << "ran with " << args.positional.size() << " arguments";
    return 0;
  };
  return command;
}

// No flag saver is needed: ParseArgs resets a subcommand's flags before it parses.
class CliTest : public ::testing::Test {};

// ---------------------------------------------------------------------------------------
// Argument parsing.

TEST_F(CliTest, ParsesEveryFlagSpelling) {
  std::vector<std::string> args = {"--function=f", "-seed", "7", "--cli_test_verbose", "x.mlir"};
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(TestCommand(), args);
  ASSERT_THAT(parsed, IsOk());
  EXPECT_THAT(parsed->positional, ElementsAre("x.mlir"));
  EXPECT_EQ(absl::GetFlag(FLAGS_function), "f");
  EXPECT_TRUE(absl::GetFlag(FLAGS_cli_test_verbose));
  EXPECT_EQ(parsed->explicitly_set,
            (std::set<std::string>{"function", "seed", "cli_test_verbose"}));
  EXPECT_FALSE(parsed->help);

  ASSERT_THAT(ParseArgs(TestCommand(), {"--nocli_test_verbose"}), IsOk());
  EXPECT_FALSE(absl::GetFlag(FLAGS_cli_test_verbose));
}

TEST_F(CliTest, AcceptsDashesForUnderscoresAndOForTheOutput) {
  ASSERT_THAT(ParseArgs(TestCommand(), {"--cli-test-verbose"}), IsOk());
  EXPECT_TRUE(absl::GetFlag(FLAGS_cli_test_verbose));
  ASSERT_THAT(ParseArgs(TestCommand(), {"--cli-test-verbose", "--no-cli-test-verbose"}), IsOk());
  EXPECT_FALSE(absl::GetFlag(FLAGS_cli_test_verbose));
  ASSERT_THAT(ParseArgs(TestCommand(), {"--cli_test_verbose", "--no_cli_test_verbose"}), IsOk());
  EXPECT_FALSE(absl::GetFlag(FLAGS_cli_test_verbose));

  Subcommand with_output = TestCommand();
  with_output.flags.push_back("output");
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(with_output, {"-o", "out.mlir", "in.mlir"});
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(absl::GetFlag(FLAGS_output), "out.mlir");
  EXPECT_THAT(parsed->positional, ElementsAre("in.mlir"));
  EXPECT_THAT(parsed->explicitly_set, ::testing::Contains("output"));
  Subcommand with_output_dir = TestCommand();
  with_output_dir.flags.push_back("output_dir");
  ASSERT_THAT(ParseArgs(with_output_dir, {"-o=results"}), IsOk());
  EXPECT_EQ(absl::GetFlag(FLAGS_output_dir), "results");
  // A command without an output has no -o.
  EXPECT_THAT(ParseArgs(TestCommand(), {"-o", "x"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag -o for 'tessel test'"));
}

TEST_F(CliTest, UnknownFlagsSuggestTheNearestKnownOne) {
  EXPECT_THAT(ParseArgs(TestCommand(), {"--sed=3"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "unknown flag --sed for 'tessel test'; did you mean --seed?"));
  EXPECT_THAT(ParseArgs(TestCommand(), {"--fucntion=f"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "did you mean --function?"));
  EXPECT_THAT(ParseArgs(TestCommand(), {"--cli-test-verbos"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "did you mean --cli_test_verbose?"));
  // Nothing near: no suggestion.
  absl::StatusOr<ParsedArgs> far = ParseArgs(TestCommand(), {"--partitions=2"});
  EXPECT_THAT(far, StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag --partitions"));
  EXPECT_THAT(far.status().message(), ::testing::Not(HasSubstr("did you mean")));
}

TEST(DidYouMeanTest, OffersOnlyNearNames) {
  const std::vector<std::string> commands = {"run", "partition", "explain", "verify", "report",
                                             "viz"};
  EXPECT_EQ(ClosestSpelling("partiton", commands), "partition");
  EXPECT_EQ(ClosestSpelling("explian", commands), "explain");
  EXPECT_EQ(ClosestSpelling("rn", commands), "run");
  EXPECT_EQ(ClosestSpelling("compile", commands), std::nullopt);
  EXPECT_EQ(ClosestSpelling("run", commands), std::nullopt);  // not a typo
  EXPECT_EQ(ClosestSpelling("x", {}), std::nullopt);
  EXPECT_EQ(DidYouMean("verfy", commands), "; did you mean 'verify'?");
  EXPECT_EQ(DidYouMean("zzzzzz", commands), "");
  // A swap of neighbours is one slip: "modle" is one edit from "model", not two.
  EXPECT_EQ(ClosestSpelling("modle", {"data", "model"}), "model");
  EXPECT_EQ(ClosestSpelling("dtaa", {"data", "model"}), "data");
  EXPECT_EQ(ClosestSpelling("mdoel", {"data", "model"}), "model");
  EXPECT_EQ(ClosestSpelling("ldoem", {"data", "model"}), std::nullopt);
}

TEST_F(CliTest, DoubleDashEndsFlagsAndLoneDashIsPositional) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(TestCommand(), {"-", "--", "--function=g", "-x"});
  ASSERT_THAT(parsed, IsOk());
  EXPECT_THAT(parsed->positional, ElementsAre("-", "--function=g", "-x"));
  EXPECT_EQ(absl::GetFlag(FLAGS_function), "main");
}

TEST_F(CliTest, HelpIsRecognized) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(TestCommand(), {"x.mlir", "-h"});
  ASSERT_THAT(parsed, IsOk());
  EXPECT_TRUE(parsed->help);
  EXPECT_THAT(ParseArgs(TestCommand(), {"--help=yes"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "--help takes no value"));
}

TEST_F(CliTest, RejectsBadFlags) {
  EXPECT_THAT(
      ParseArgs(TestCommand(), {"--bogus=1"}),
      StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag --bogus for 'tessel test'"));
  // A flag that exists in the binary but belongs to another subcommand.
  EXPECT_THAT(ParseArgs(TestCommand(), {"--partitions=2"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag --partitions"));
  // --no<name> only negates boolean flags.
  EXPECT_THAT(ParseArgs(TestCommand(), {"--noseed"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag --noseed"));
  EXPECT_THAT(ParseArgs(TestCommand(), {"--nocli_test_verbose=1"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "takes no value"));
  EXPECT_THAT(ParseArgs(TestCommand(), {"--seed"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "flag --seed needs a value"));
  EXPECT_THAT(ParseArgs(TestCommand(), {"--seed=-3x"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "invalid value '-3x' for --seed"));
}

TEST_F(CliTest, RunSubcommandMapsOutcomesToExitCodes) {
  std::ostringstream out, err;
  EXPECT_EQ(RunSubcommand(TestCommand(), {"a", "b"}, out, err), kExitOk);
  EXPECT_EQ(out.str(), "ran with 2 arguments");

  out.str("");
  EXPECT_EQ(RunSubcommand(TestCommand(), {"--help"}, out, err), kExitOk);
  EXPECT_THAT(out.str(), HasSubstr("usage: tessel test FILE"));
  EXPECT_THAT(out.str(), HasSubstr("--cli_test_verbose (default: false)"));
  EXPECT_THAT(out.str(), ::testing::Not(HasSubstr("--partitions")));

  EXPECT_EQ(RunSubcommand(TestCommand(), {"--what"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("tessel test: unknown flag --what"));
}

// ---------------------------------------------------------------------------------------
// Program loading.

TEST_F(CliTest, DetectsTheFormatByExtensionThenByFirstWord) {
  EXPECT_EQ(DetectProgramFormat("a.mlir", "HloModule m"), ProgramFormat::kMlir);
  EXPECT_EQ(DetectProgramFormat("a.hlo", "func.func @f()"), ProgramFormat::kHlo);
  EXPECT_EQ(DetectProgramFormat("a.txt", "HloModule m\nENTRY"), ProgramFormat::kHlo);
  EXPECT_EQ(DetectProgramFormat("a.txt", "  // a comment\n\n// another\n  HloModule m"),
            ProgramFormat::kHlo);
  EXPECT_EQ(DetectProgramFormat("a.txt", "HloModuleX"), ProgramFormat::kMlir);
  EXPECT_EQ(DetectProgramFormat("a.txt", "func.func @f() { return }"), ProgramFormat::kMlir);
  EXPECT_EQ(DetectProgramFormat("-", "// only a comment"), ProgramFormat::kMlir);
}

TEST_F(CliTest, LoadProgramReportsMissingFilesAndLocatedParseErrors) {
  mlir::MLIRContext context;
  EXPECT_THAT(LoadProgram(TempPath("missing.mlir"), context),
              StatusIs(absl::StatusCode::kNotFound, "cannot read '"));

  std::string bad_mlir = TempPath("bad.mlir");
  WriteText(bad_mlir, "func.func @f(%x: tensor<4xf32>) {\n  %0 = hlo.add %x, : tensor<4xf32>\n}\n");
  EXPECT_THAT(LoadProgram(bad_mlir, context),
              StatusIs(absl::StatusCode::kInvalidArgument, bad_mlir + ":2:19: error:"));

  // Sniffed as HLO, so the HLO parser's message is the one reported.
  std::string bad_hlo = TempPath("bad_hlo.txt");
  WriteText(bad_hlo, "HloModule m\nENTRY main {\n  ROOT x = f32[4] cbrt()\n}\n");
  EXPECT_THAT(LoadProgram(bad_hlo, context),
              StatusIs(absl::StatusCode::kInvalidArgument, bad_hlo + ":3:"));
}

// HLO inputs are printed in local scope, without the printer's alias pass: the text must
// be what the full printer writes for the same module, the newline at the end included.
TEST_F(CliTest, PartitionPrintsHloInputsAsTheFullPrinterWould) {
  std::string hlo = TempPath("print.hlo");
  WriteText(hlo,
            "HloModule m\nENTRY main {\n"
            "  x = f32[8,4] parameter(0), sharding={devices=[2,1]<=[2]}\n"
            "  c = f32[] constant(2)\n"
            "  b = f32[8,4] broadcast(c), dimensions={}\n"
            "  ROOT y = f32[8,4] multiply(x, b)\n}\n");
  std::ostringstream out, err;
  ASSERT_EQ(RunSubcommand(PartitionCommand(), {hlo}, out, err), kExitOk) << err.str();
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(out.str(), "out.mlir", context);
  ASSERT_TRUE(module.ok()) << module.status();
  std::string full;
  llvm::raw_string_ostream os(full);
  (*module)->print(os, mlir::OpPrintingFlags().assumeVerified());
  EXPECT_EQ(out.str(), full);
  EXPECT_THAT(out.str(), ::testing::EndsWith("}\n"));
}

TEST_F(CliTest, FindFunctionNamesTheFileAndListsTheFunctions) {
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule("func.func @main() { return }\nfunc.func @g() { return }\nfunc.func private @d()",
                  "p.mlir", context);
  ASSERT_THAT(module, IsOk());
  EXPECT_THAT(FindFunction(**module, "g", "p.mlir"), IsOk());
  EXPECT_THAT(
      FindFunction(**module, "h", "p.mlir"),
      StatusIs(absl::StatusCode::kNotFound, "p.mlir: no function @h (functions: @main, @g)"));
  EXPECT_THAT(FindFunction(**module, "d", "p.mlir"),
              StatusIs(absl::StatusCode::kNotFound, "@d is a declaration without a body"));
}

// ---------------------------------------------------------------------------------------
// Inputs.

class InputsTest : public CliTest {
 protected:
  void SetUp() override {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = ParseModule(R"(
      func.func @main(%x: tensor<2x3xf32>, %y: tensor<4xi32>) -> tensor<2x3xf32> {
        return %x : tensor<2x3xf32>
      }
      func.func @dynamic(%x: tensor<?xf32>) { return }
      func.func @complex(%x: tensor<2xcomplex<f16>>) { return }
      func.func @scalar(%x: f32) { return }
    )",
                                                                           "p.mlir", context_);
    ASSERT_THAT(module, IsOk());
    module_ = *std::move(module);
  }

  mlir::func::FuncOp Function(llvm::StringRef name) {
    return module_->lookupSymbol<mlir::func::FuncOp>(name);
  }

  // Saves `tensor` as `name` in the test's temporary directory and returns its path.
  static std::string Save(const Tensor& tensor, const std::string& name) {
    std::string path = TempPath(name);
    EXPECT_THAT(runtime::WriteNpy(tensor, path), IsOk());
    return path;
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

TEST_F(InputsTest, ReadsMatchingFiles) {
  std::string x = Save(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}), "x.npy");
  std::string y = Save(Tensor::FromVector<int32_t>({4}, {7, 8, 9, 10}), "y.npy");
  absl::StatusOr<std::vector<Tensor>> inputs = ReadInputs(Function("main"), {x, y});
  ASSERT_THAT(inputs, IsOk());
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_THAT((*inputs)[1].ToVector<int32_t>(), ElementsAre(7, 8, 9, 10));
}

TEST_F(InputsTest, RejectsTheWrongNumberOfFiles) {
  std::string x = Save(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}), "x1.npy");
  EXPECT_THAT(ReadInputs(Function("main"), {x}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "p.mlir:2:7: @main takes 2 arguments, but --inputs names 1 file"));
}

TEST_F(InputsTest, RejectsAWrongShapeOrDtypeNamingTheFile) {
  std::string x = Save(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}), "x2.npy");
  std::string transposed = Save(Tensor::Zeros(runtime::ElementType::kF32, {3, 2}), "t.npy");
  std::string f64 = Save(Tensor::Zeros(runtime::ElementType::kF64, {4}), "f64.npy");
  EXPECT_THAT(
      ReadInputs(Function("main"), {transposed, f64}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               transposed + ": argument 0 of @main: expected tensor<2x3xf32>, got f32[3,2]"));
  EXPECT_THAT(ReadInputs(Function("main"), {x, f64}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       f64 + ": argument 1 of @main: expected tensor<4xi32>, got f64[4]"));
}

TEST_F(InputsTest, ReportsUnreadableAndMalformedFiles) {
  std::string missing = TempPath("missing.npy");
  std::string x = Save(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}), "x3.npy");
  EXPECT_THAT(ReadInputs(Function("main"), {x, missing}),
              StatusIs(absl::StatusCode::kNotFound, missing));
  std::string garbage = TempPath("garbage.npy");
  WriteText(garbage, "not an npy file");
  EXPECT_THAT(ReadInputs(Function("main"), {garbage, x}),
              StatusIs(absl::StatusCode::kInvalidArgument, garbage));
}

TEST_F(InputsTest, RandomInputsAreSeededPerArgument) {
  absl::StatusOr<std::vector<Tensor>> inputs = RandomInputs(Function("main"), 41);
  ASSERT_THAT(inputs, IsOk());
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_TRUE(
      (*inputs)[0].BitwiseEquals(runtime::RandomTensor(runtime::ElementType::kF32, {2, 3}, 41)));
  EXPECT_TRUE(
      (*inputs)[1].BitwiseEquals(runtime::RandomTensor(runtime::ElementType::kS32, {4}, 42)));
}

TEST_F(InputsTest, RandomInputsNeedStaticTensorsOfExecutableTypes) {
  EXPECT_THAT(RandomInputs(Function("dynamic"), 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "p.mlir:5:7: @dynamic: argument 0 (tensor<?xf32>): random inputs need "
                       "a tensor type with a static shape"));
  EXPECT_THAT(RandomInputs(Function("scalar"), 0),
              StatusIs(absl::StatusCode::kInvalidArgument, "@scalar: argument 0 (f32)"));
  EXPECT_THAT(RandomInputs(Function("complex"), 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "@complex: argument 0 (tensor<2xcomplex<f16>>): "));
}

// ---------------------------------------------------------------------------------------
// `tessel run` end to end, for its exit codes.

TEST_F(CliTest, RunExitCodes) {
  std::string program = TempPath("add.mlir");
  WriteText(program,
            "func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
            "  %0 = hlo.add %x, %x : tensor<2xi32>\n"
            "  return %0 : tensor<2xi32>\n"
            "}\n");
  std::string x = TempPath("run_x.npy");
  ASSERT_THAT(runtime::WriteNpy(Tensor::FromVector<int32_t>({2}, {3, -4}), x), IsOk());
  std::ostringstream out, err;
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--inputs=" + x}, out, err), kExitOk);
  EXPECT_EQ(out.str(), "result 0: s32[2] {6, -8}\n");

  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--inputs", x, "--seed=1"}, out, err),
            kExitUsage);
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--partitions=0"}, out, err), kExitUsage);
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--print_limit=-1"}, out, err), kExitUsage);
  EXPECT_EQ(RunSubcommand(RunCommand(), {}, out, err), kExitUsage);
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, program}, out, err), kExitUsage);

  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--function=nope"}, out, err), kExitBadInput);
  EXPECT_EQ(RunSubcommand(RunCommand(), {TempPath("nope.mlir")}, out, err), kExitBadInput);
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--inputs="}, out, err), kExitBadInput);
  EXPECT_THAT(err.str(),
              HasSubstr("add.mlir:1:1: @main takes 1 argument, but --inputs names 0 files"));
}

TEST_F(CliTest, RunBackendFlagsAreUsageErrors) {
  // Each is rejected before MPI is touched, with exit status 2 and a message.
  std::string program = TempPath("mesh.mlir");
  WriteText(program, "func.func @main() { return }\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--backend=nccl"}, "--backend must be local or mpi, got 'nccl'"},
      {{"--backend=mpi", "--partitions=4"}, "drop --partitions"},
      {{"--backend=mpi", "--device_assignment=data"}, "'data' is not axis:backend"},
      {{"--backend=mpi", "--device_assignment=data:gpu"}, "unknown backend 'gpu'"},
      {{"--backend=mpi", "--collective_timeout=0s"}, "--collective_timeout must be positive"},
      {{"--device_assignment=data:mpi"}, "need --backend=mpi"},
      {{"--collective_timeout=5s"}, "need --backend=mpi"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> args = {program};
    args.insert(args.end(), flags.begin(), flags.end());
    std::ostringstream out, err;
    EXPECT_EQ(RunSubcommand(RunCommand(), args, out, err), kExitUsage) << flags[0];
    EXPECT_THAT(err.str(), HasSubstr(message)) << flags[0];
  }
}

TEST_F(CliTest, ParsesByteSizes) {
  EXPECT_EQ(ParseByteSize("max_memory", "1048576").value_or(-1), 1048576);
  EXPECT_EQ(ParseByteSize("max_memory", "512M").value_or(-1), int64_t{512} << 20);
  EXPECT_EQ(ParseByteSize("max_memory", "4G").value_or(-1), int64_t{4} << 30);
  EXPECT_EQ(ParseByteSize("max_memory", "4gib").value_or(-1), int64_t{4} << 30);
  EXPECT_EQ(ParseByteSize("max_memory", "2TB").value_or(-1), int64_t{2} << 40);
  EXPECT_EQ(ParseByteSize("max_memory", "64k").value_or(-1), int64_t{64} << 10);
  for (const char* bad : {"", "0", "-1", "1.5G", "G", "4X", "4GBB", " 4G", "4 G"}) {
    EXPECT_THAT(ParseByteSize("max_memory", bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "--max_memory must be a positive number of bytes"))
        << bad;
  }
  EXPECT_THAT(ParseByteSize("max_memory", "8388608T"),
              StatusIs(absl::StatusCode::kInvalidArgument, "at most 2^63 - 1 bytes"));
  EXPECT_THAT(ParseByteSize("max_memory", "99999999999999999999"),
              StatusIs(absl::StatusCode::kInvalidArgument, "positive number of bytes"));
}

// A while loop whose condition is always true.
constexpr char kEndlessLoop[] =
    "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  %r = hlo.while(%s = %x) : tensor<2xf32>\n"
    "  cond {\n"
    "    %t = hlo.constant dense<true> : tensor<i1>\n"
    "    hlo.return %t : tensor<i1>\n"
    "  } do {\n"
    "    %s1 = hlo.add %s, %s : tensor<2xf32>\n"
    "    hlo.return %s1 : tensor<2xf32>\n"
    "  }\n"
    "  return %r : tensor<2xf32>\n"
    "}\n";

TEST_F(CliTest, RunTimeoutEndsAnEndlessLoopNamingIt) {
  std::string program = TempPath("endless.mlir");
  WriteText(program, kEndlessLoop);
  for (const char* partitions : {"--partitions=1", "--partitions=3"}) {
    std::ostringstream out, err;
    EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--timeout=200ms", partitions}, out, err),
              kExitBadInput);
    EXPECT_THAT(err.str(), HasSubstr("hlo.while at " + program + ":2:8: iteration "));
    EXPECT_THAT(err.str(), HasSubstr("stopped here: the run took longer than --timeout=200ms"));
  }
}

TEST_F(CliTest, RunLimitErrorsGetNoHintAboutCollectives) {
  // The loop comes before the collective: on one partition the limit stops it first, and
  // the hint to run collectives on partitions would mislead.
  std::string program = TempPath("endless_then_all_reduce.mlir");
  WriteText(program,
            "tessel.mesh @mesh = <[\"x\"=2]>\n"
            "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
            "  %r = hlo.while(%s = %x) : tensor<2xf32>\n"
            "  cond {\n"
            "    %t = hlo.constant dense<true> : tensor<i1>\n"
            "    hlo.return %t : tensor<i1>\n"
            "  } do {\n"
            "    hlo.return %s : tensor<2xf32>\n"
            "  }\n"
            "  %a = tessel.all_reduce %r over @mesh [\"x\"] kind = sum : tensor<2xf32>\n"
            "  return %a : tensor<2xf32>\n"
            "}\n");
  for (const char* limit : {"--timeout=100ms", "--max_while_iterations=10"}) {
    std::ostringstream out, err;
    EXPECT_EQ(RunSubcommand(RunCommand(), {program, limit}, out, err), kExitBadInput) << limit;
    EXPECT_THAT(err.str(), HasSubstr("hlo.while at " + program + ":3:8: ")) << limit;
    EXPECT_THAT(err.str(), ::testing::Not(HasSubstr("hint:"))) << limit;
  }
}

TEST_F(CliTest, RunMaxWhileIterationsEndsALoopNamingItAndTheLimit) {
  std::string program = TempPath("endless_iterations.mlir");
  WriteText(program, kEndlessLoop);
  std::ostringstream out, err;
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--max_while_iterations=50"}, out, err),
            kExitBadInput);
  EXPECT_EQ(err.str(), "tessel run: hlo.while at " + program +
                           ":2:8: the loop did not end within max_while_iterations = 50 "
                           "iterations\n");
}

TEST_F(CliTest, RunMaxMemoryFailsTheOpThatAsksTooMuch) {
  std::string program = TempPath("broadcast.mlir");
  WriteText(program,
            "func.func @main(%x: tensor<f32>) -> tensor<1024x1024xf32> {\n"
            "  %0 = hlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>\n"
            "  return %0 : tensor<1024x1024xf32>\n"
            "}\n");
  const int64_t before = runtime::MemoryLimit();
  std::ostringstream out, err;
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--max_memory=1M"}, out, err), kExitBadInput);
  EXPECT_THAT(err.str(),
              HasSubstr("hlo.broadcast_in_dim at " + program +
                        ":2:8: out of memory: f32[1024,1024] needs 4194304 bytes (4 MiB), "
                        "beyond max_memory = 1048576 bytes (1 MiB)"));
  // The limit is the process's; the command puts it back as it found it.
  EXPECT_EQ(runtime::MemoryLimit(), before);
  std::ostringstream fits_out, fits_err;
  EXPECT_EQ(RunSubcommand(RunCommand(), {program, "--max_memory=5M", "--print_limit=0"},
                          fits_out, fits_err),
            kExitOk)
      << fits_err.str();
}

TEST_F(CliTest, RunLimitFlagsAreUsageErrors) {
  std::string program = TempPath("limits.mlir");
  WriteText(program, "func.func @main() { return }\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--timeout=0s"}, "--timeout must be positive, got 0"},
      {{"--timeout=-1s"}, "--timeout must be positive"},
      {{"--max_while_iterations=-3"}, "--max_while_iterations must not be negative, got -3"},
      {{"--max_memory=lots"}, "--max_memory must be a positive number of bytes"},
      {{"--max_memory=0"}, "--max_memory must be a positive number of bytes"},
      {{"--backend=mpi", "--timeout=5s"}, "--timeout applies to local runs"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> args = {program};
    args.insert(args.end(), flags.begin(), flags.end());
    std::ostringstream out, err;
    EXPECT_EQ(RunSubcommand(RunCommand(), args, out, err), kExitUsage) << flags[0];
    EXPECT_THAT(err.str(), HasSubstr(message)) << flags[0];
  }
}

using Dims = std::vector<std::vector<std::string>>;

TEST(PartitionSpecTest, ReadsTheFormsJaxUsersWrite) {
  EXPECT_EQ(ParsePartitionSpec("P('data', None)")->dims, (Dims{{"data"}, {}}));
  EXPECT_EQ(ParsePartitionSpec("P(\"data\",None)")->dims, (Dims{{"data"}, {}}));
  EXPECT_EQ(ParsePartitionSpec(" PartitionSpec( ('x', 'y'), model ) ")->dims,
            (Dims{{"x", "y"}, {"model"}}));
  EXPECT_EQ(ParsePartitionSpec("P(('x',), ())")->dims, (Dims{{"x"}, {}}));
  EXPECT_TRUE(ParsePartitionSpec("P()")->dims.empty());
  EXPECT_TRUE(ParsePartitionSpec("replicated")->dims.empty());
}

TEST(PartitionSpecTest, MalformedSpecsSayWhere) {
  EXPECT_THAT(ParsePartitionSpec("P('data', None"),
              StatusIs(absl::StatusCode::kInvalidArgument, "at column 15: ',' or ')' expected"));
  EXPECT_THAT(ParsePartitionSpec("P('data)"),
              StatusIs(absl::StatusCode::kInvalidArgument, "an unterminated axis name"));
  EXPECT_THAT(ParsePartitionSpec("P('')"),
              StatusIs(absl::StatusCode::kInvalidArgument, "an empty axis name"));
  EXPECT_THAT(ParsePartitionSpec("P(x) y"),
              StatusIs(absl::StatusCode::kInvalidArgument, "unexpected text after"));
  EXPECT_THAT(ParsePartitionSpec("P(,)"),
              StatusIs(absl::StatusCode::kInvalidArgument, "an axis name, None or a tuple"));
  EXPECT_THAT(ParsePartitionSpec("[x]"),
              StatusIs(absl::StatusCode::kInvalidArgument, "expected P(...) or replicated"));
}

TEST(PartitionSpecTest, AssignmentsSplitAtCommasOutsideParentheses) {
  absl::StatusOr<std::vector<ShardingAssignment>> parsed = ParseShardingAssignments(
      "x=P('data', None), w1 = P(None, ('a','b')),2=replicated", "in_shardings");
  ASSERT_THAT(parsed, IsOk());
  ASSERT_EQ(parsed->size(), 3u);
  EXPECT_EQ((*parsed)[0].target, "x");
  EXPECT_EQ((*parsed)[0].spec.dims, (Dims{{"data"}, {}}));
  EXPECT_EQ((*parsed)[1].target, "w1");
  EXPECT_EQ((*parsed)[1].spec.dims, (Dims{{}, {"a", "b"}}));
  EXPECT_EQ((*parsed)[2].target, "2");
  EXPECT_TRUE((*parsed)[2].spec.dims.empty());
  EXPECT_TRUE(ParseShardingAssignments("", "in_shardings")->empty());
  EXPECT_THAT(ParseShardingAssignments("=P()", "out_shardings"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--out_shardings: '=P()' names no argument or result"));
}

}  // namespace
}  // namespace tessel::cli
