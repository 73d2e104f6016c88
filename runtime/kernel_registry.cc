// The name → kernel map.
#include "runtime/kernel_registry.h"

#include <algorithm>

namespace tessel::runtime {

void KernelRegistry::Register(std::string op_name, Kernel kernel) {
  kernels_[std::move(op_name)] = std::move(kernel);
}

const Kernel* KernelRegistry::Find(llvm::StringRef op_name) const {
  auto it = kernels_.find(absl::string_view(op_name.data(), op_name.size()));
  return it == kernels_.end() ? nullptr : &it->second;
}

std::vector<std::string> KernelRegistry::RegisteredOps() const {
  std::vector<std::string> names;
  for (const auto& [name, kernel] : kernels_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace tessel::runtime
