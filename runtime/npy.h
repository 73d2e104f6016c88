// Reading and writing tensors as NumPy .npy files, so that inputs and reference outputs can
// be exchanged with Python (np.load / np.save).
//
//   TESSEL_ASSIGN_OR_RETURN(Tensor x, ReadNpy("inputs/x.npy"));
//   TESSEL_RETURN_IF_ERROR(WriteNpy(result, "outputs/y.npy"));
//
// Format: .npy versions 1.0, 2.0 and 3.0 are read; files are written as version 1.0, or 2.0
// when the header does not fit 1.0's 16-bit length. Only C (row-major) order is supported.
// Element types and their dtype strings ('descr'):
//   pred '|b1'; s8 '|i1'; s16 '<i2'; s32 '<i4'; s64 '<i8'; u8 '|u1'; u16 '<u2'; u32 '<u4';
//   u64 '<u8'; f16 '<f2'; f32 '<f4'; f64 '<f8'.
// Reading also accepts '<' in place of '|' for the one-byte types.
//
// bf16 has no standard NumPy dtype. Tessel writes it with descr 'bfloat16' and the raw
// 16-bit patterns as data, and reads that back. 'bfloat16' is the name ml_dtypes registers
// with NumPy, so `import ml_dtypes; np.load(path)` reads such a file as a bfloat16 array.
// (np.save of an ml_dtypes array itself writes '<V2', which loses the type; Tessel rejects
// it rather than guess.) To save bf16 from Python for Tessel, write the header with
// descr 'bfloat16' (see runtime/testdata/make_npy_testdata.py).
#ifndef TESSEL_RUNTIME_NPY_H_
#define TESSEL_RUNTIME_NPY_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// Reads the .npy file at `path`. Fails with NotFound if the file does not exist,
// InvalidArgument for a bad magic string or header, Unimplemented for a dtype Tessel does
// not have or Fortran order, and DataLoss if the data is shorter or longer than the header
// says; every message names the file.
absl::StatusOr<Tensor> ReadNpy(absl::string_view path);

// Writes `tensor` to `path` in .npy format, replacing any existing file.
absl::Status WriteNpy(const Tensor& tensor, absl::string_view path);

// The same on the bytes of a .npy file in memory; `name` stands for the source in errors.
absl::StatusOr<Tensor> ParseNpy(absl::string_view bytes, absl::string_view name = "<npy bytes>");
std::string SerializeNpy(const Tensor& tensor);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_NPY_H_
