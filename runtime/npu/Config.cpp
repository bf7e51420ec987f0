//===- Config.cpp - NPU-v1 target configuration -----------------*- C++ -*-===//
//
// JSON reading and writing of the target configuration.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Config.h"

#include "absl/strings/str_cat.h"

#include <nlohmann/json.hpp>

namespace kiln::npu {

const char *lmemRegionName(LmemRegion region) {
  switch (region) {
  case LmemRegion::ACT:
    return "ACT";
  case LmemRegion::WGT:
    return "WGT";
  case LmemRegion::ACC:
    return "ACC";
  case LmemRegion::PARAM:
    return "PARAM";
  }
  return "?";
}

uint32_t TargetConfig::regionSize(LmemRegion region) const {
  switch (region) {
  case LmemRegion::ACT:
    return lmemActKiB * 1024;
  case LmemRegion::WGT:
    return lmemWgtKiB * 1024;
  case LmemRegion::ACC:
    return lmemAccKiB * 1024;
  case LmemRegion::PARAM:
    return lmemParamKiB * 1024;
  }
  return 0;
}

uint32_t TargetConfig::regionBase(LmemRegion region) const {
  uint32_t base = 0;
  for (int i = 0; i < static_cast<int>(region); ++i)
    base += regionSize(static_cast<LmemRegion>(i));
  return base;
}

uint32_t TargetConfig::lmemSize() const {
  return regionBase(LmemRegion::PARAM) + regionSize(LmemRegion::PARAM);
}

namespace {
/// One JSON key bound to a member.
struct Key {
  const char *name;
  uint32_t TargetConfig::*member;
};
constexpr Key kKeys[] = {
    {"mac.rows", &TargetConfig::macRows},
    {"mac.cols", &TargetConfig::macCols},
    {"mac.weight_load_cycles", &TargetConfig::macWeightLoadCycles},
    {"mac.pipeline_latency", &TargetConfig::macPipelineLatency},
    {"mac.setup_cycles", &TargetConfig::macSetupCycles},
    {"vec.lanes", &TargetConfig::vecLanes},
    {"vec.setup_cycles", &TargetConfig::vecSetupCycles},
    {"dma.dram_bytes_per_cycle", &TargetConfig::dmaDramBytesPerCycle},
    {"dma.dram_latency", &TargetConfig::dmaDramLatency},
    {"dma.burst_bytes", &TargetConfig::dmaBurstBytes},
    {"dma.setup_cycles", &TargetConfig::dmaSetupCycles},
    {"dma.lmem_bytes_per_cycle", &TargetConfig::dmaLmemBytesPerCycle},
    {"lmem.act_kib", &TargetConfig::lmemActKiB},
    {"lmem.wgt_kib", &TargetConfig::lmemWgtKiB},
    {"lmem.acc_kib", &TargetConfig::lmemAccKiB},
    {"lmem.param_kib", &TargetConfig::lmemParamKiB},
    {"queues.fifo_depth", &TargetConfig::fifoDepth},
    {"semaphores", &TargetConfig::semaphores},
    {"dram_regions", &TargetConfig::dramRegions},
    {"clock_mhz", &TargetConfig::clockMHz},
};
} // namespace

namespace {
const Key *findKey(absl::string_view name) {
  for (const Key &key : kKeys)
    if (name == key.name)
      return &key;
  return nullptr;
}
} // namespace

absl::Status TargetConfig::validate() const {
  for (const Key &key : kKeys)
    if (this->*key.member == 0)
      return absl::InvalidArgumentError(
          absl::StrCat("target config: '", key.name, "' must be nonzero"));
  if (macRows % 16 || macCols % 16)
    return absl::InvalidArgumentError(
        "target config: 'mac.rows' and 'mac.cols' must be multiples of 16");
  if (dmaBurstBytes & (dmaBurstBytes - 1))
    return absl::InvalidArgumentError(
        "target config: 'dma.burst_bytes' must be a power of two");
  uint64_t total =
      uint64_t(lmemActKiB) + lmemWgtKiB + lmemAccKiB + lmemParamKiB;
  if (total * 1024 > (1u << 24))
    return absl::InvalidArgumentError(
        absl::StrCat("target config: LMEM regions total ", total,
                     " KiB, more than the 24-bit address space (16384 KiB)"));
  if (semaphores > 255)
    return absl::InvalidArgumentError(
        "target config: 'semaphores' must be at most 255");
  if (dramRegions > 255)
    return absl::InvalidArgumentError(
        "target config: 'dram_regions' must be at most 255");
  return absl::OkStatus();
}

std::string TargetConfig::toJson() const {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const Key &key : kKeys)
    json[key.name] = this->*key.member;
  return json.dump(2) + "\n";
}

absl::StatusOr<TargetConfig> TargetConfig::fromJson(absl::string_view text) {
  nlohmann::json json = nlohmann::json::parse(text.begin(), text.end(), nullptr,
                                              /*allow_exceptions=*/false);
  if (json.is_discarded())
    return absl::InvalidArgumentError("target config: malformed JSON");
  if (!json.is_object())
    return absl::InvalidArgumentError("target config: expected a JSON object");
  TargetConfig config;
  for (auto it = json.begin(); it != json.end(); ++it) {
    const Key *found = findKey(it.key());
    if (!found)
      return absl::InvalidArgumentError(
          absl::StrCat("target config: unknown key '", it.key(), "'"));
    if (!it.value().is_number_unsigned() ||
        it.value().get<uint64_t>() > 0xffffffffull)
      return absl::InvalidArgumentError(
          absl::StrCat("target config: '", it.key(),
                       "' must be an unsigned 32-bit integer"));
    config.*(found->member) = it.value().get<uint32_t>();
  }
  if (absl::Status status = config.validate(); !status.ok())
    return status;
  return config;
}

absl::Status TargetConfig::set(absl::string_view key, uint64_t value) {
  const Key *found = findKey(key);
  if (!found)
    return absl::InvalidArgumentError(
        absl::StrCat("target config: unknown key '", key, "'"));
  if (value > 0xffffffffull)
    return absl::InvalidArgumentError(absl::StrCat(
        "target config: '", key, "' must be an unsigned 32-bit integer"));
  this->*(found->member) = static_cast<uint32_t>(value);
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> TargetConfig::get(absl::string_view key) const {
  const Key *found = findKey(key);
  if (!found)
    return absl::InvalidArgumentError(
        absl::StrCat("target config: unknown key '", key, "'"));
  return this->*(found->member);
}

std::vector<std::string> TargetConfig::keys() {
  std::vector<std::string> names;
  for (const Key &key : kKeys)
    names.emplace_back(key.name);
  return names;
}

absl::StatusOr<TargetConfig> TargetConfig::preset(absl::string_view name) {
  TargetConfig config;
  if (name == "default")
    return config;
  if (name == "realistic") {
    config.dmaDramBytesPerCycle = 4;
    config.dmaDramLatency = 500;
    config.lmemActKiB = 256;
    return config;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target configuration '", name,
      "' (expected 'default' or 'realistic')"));
}

std::vector<std::string> TargetConfig::presetNames() {
  return {"default", "realistic"};
}

uint64_t fnv1a64(const uint8_t *data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

} // namespace kiln::npu
