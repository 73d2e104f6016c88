// Merging the terms of memory rows and keeping alike rows once.
#include "partitioner/auto/memory_rows.h"

namespace tessel::auto_sharding {
namespace {

void addInto(std::vector<double>& sum, const std::vector<double>& bytes) {
  if (sum.empty()) {
    sum = bytes;
    return;
  }
  for (size_t i = 0; i < sum.size() && i < bytes.size(); ++i) sum[i] += bytes[i];
}

void append(std::string& key, const void* data, size_t size) {
  key.append(static_cast<const char*>(data), size);
}

}  // namespace

void MemoryRows::addNodeTerm(int node, const std::vector<double>& bytes) {
  addInto(nodeTerms_[node], bytes);
}

void MemoryRows::addEdgeTerm(int from, int to, const std::vector<double>& bytes) {
  addInto(edgeTerms_[{from, to}], bytes);
}

std::pair<size_t, bool> MemoryRows::finishRow(double constantBytes) {
  IlpMemoryPoint row;
  row.constantBytes = constantBytes;
  std::string key;
  row.nodeBytes.reserve(nodeTerms_.size());
  for (auto& [node, bytes] : nodeTerms_) {
    append(key, &node, sizeof(node));
    append(key, bytes.data(), bytes.size() * sizeof(double));
    row.nodeBytes.emplace_back(node, std::move(bytes));
  }
  key.push_back('|');
  row.edgeBytes.reserve(edgeTerms_.size());
  for (auto& [ends, bytes] : edgeTerms_) {
    append(key, &ends.first, sizeof(ends.first));
    append(key, &ends.second, sizeof(ends.second));
    append(key, bytes.data(), bytes.size() * sizeof(double));
    row.edgeBytes.push_back({ends.first, ends.second, std::move(bytes)});
  }
  nodeTerms_.clear();
  edgeTerms_.clear();
  auto [it, inserted] = rowOf_.try_emplace(std::move(key), rows_.size());
  if (inserted) {
    rows_.push_back(std::move(row));
    return {it->second, true};
  }
  double& kept = rows_[it->second].constantBytes;
  if (constantBytes <= kept) return {it->second, false};
  kept = constantBytes;
  return {it->second, true};
}

}  // namespace tessel::auto_sharding
