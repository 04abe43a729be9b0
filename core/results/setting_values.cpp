#include "results/setting_values.h"

#include <exception>

#include "engine/time.h"
#include "scenario/friendly_names.h"
#include "scenario/quantity.h"
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
  SettingValue v{key, std::nullopt, canonicalValueText(key, value)};
  try {
    if (const std::optional<QuantityKind> kind = unitKind(key)) {
      v.column = key + suffix(*kind);
      const double q = parseQuantity(value, *kind, key);
      v.number = *kind == QuantityKind::Time ? q / static_cast<double>(kNanosecond) : *kind == QuantityKind::Bandwidth ? q / 1e9 : q;
      return v;
    }
    const ParamSpec* spec = findParam(key);
    const std::string field = key.substr(key.rfind('.') + 1);
    if ((spec && (spec->type == "int" || spec->type == "float" || spec->type == "fraction")) ||
        (!spec && field == "count")) {  // topology.levels[i].count
      std::size_t used = 0;
      const double d = spec && spec->quantity ? parseQuantity(value, *spec->quantity, key) : std::stod(value, &used);
      if (spec && spec->quantity) used = value.size();
      if (used == value.size()) v.number = d;
    }
  } catch (const std::exception&) {  // text that is not a number of its kind: kept as text
  }
  return v;
}

}  // namespace fl
