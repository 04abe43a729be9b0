#include "results/setting_values.h"

#include "engine/time.h"
#include "scenario/friendly_names.h"
#include "scenario/schema.h"

namespace fl {

namespace {

// A size, time or rate: the kinds whose text carries a unit.
std::optional<QuantityKind> unitKind(const std::string& key) {
  const std::optional<QuantityKind> kind = keyQuantity(key);
  if (kind && *kind != QuantityKind::Bytes && *kind != QuantityKind::Time && *kind != QuantityKind::Bandwidth)
    return std::nullopt;
  return kind;
}

const char* suffix(QuantityKind k) {
  return k == QuantityKind::Bytes ? "_bytes" : k == QuantityKind::Time ? "_ns" : "_GBps";
}

}  // namespace

std::string settingUnitColumn(const std::string& key) {
  const std::optional<QuantityKind> kind = unitKind(key);
  return kind ? key + suffix(*kind) : std::string();
}

SettingValue settingValue(const std::string& key, const std::string& value) {
  SettingValue v{key, settingNumber(key, value), canonicalValueText(key, value)};
  if (const std::optional<QuantityKind> kind = unitKind(key)) {  // from bytes, ps, B/s
    v.column = key + suffix(*kind);
    if (v.number && *kind == QuantityKind::Time) *v.number /= static_cast<double>(kNanosecond);
    if (v.number && *kind == QuantityKind::Bandwidth) *v.number /= 1e9;
  }
  return v;
}

}  // namespace fl
