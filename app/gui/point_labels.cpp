#include "gui/point_labels.h"

#include <QCoreApplication>
#include <algorithm>

#include "gui/scheme_presets.h"
#include "scenario/friendly_names.h"
#include "scenario/schema.h"
#include "scenario/story.h"
#include "scenario/sweep.h"

namespace fl::gui {

namespace {

// The seeds' baselines (seed 000 §VI) besides the presets of the Fusion scheme dock.
QString baselineName(const std::string& communication, const std::string& fusion) {
  if (communication == "deepep" && fusion == "sequential") return QStringLiteral("DeepEP");
  if (communication == "deepep" && fusion == "overlap") return QStringLiteral("COMET");
  return {};
}

// One axis's part of a point's label: the axis's own label, the seeds' name for the value
// ("ER-Mapping"), else "key = value" with the key's last segment.
QString axisPart(const SweepAxis& axis, const std::string& value) {
  const auto v = size_t(std::find(axis.values.begin(), axis.values.end(), value) - axis.values.begin());
  if (v < axis.labels.size()) return QString::fromStdString(axis.labels[v]);
  const std::string known = friendlyValueName(axis.key, value);
  if (!known.empty()) return QString::fromStdString(known);
  const auto dot = axis.key.rfind('.');
  return QStringLiteral("%1 = %2").arg(QString::fromStdString(dot == std::string::npos ? axis.key : axis.key.substr(dot + 1)),
                                       QString::fromStdString(value));
}

}  // namespace

QStringList friendlyPointLabels(const Scenario& s) {
  const std::vector<std::string> plain = sweepPointLabels(s);  // axes' labels or key = value
  QStringList out;
  const size_t n = plain.size();
  int comm = -1, fusion = -1;
  for (size_t a = 0; a < s.sweep.size(); ++a) {
    if (s.sweep[a].key == "scheme.communication" && s.sweep[a].labels.empty()) comm = int(a);
    if (s.sweep[a].key == "scheme.fusion" && s.sweep[a].labels.empty()) fusion = int(a);
  }
  for (size_t i = 0; i < n; ++i) {
    if (comm < 0 && fusion < 0) {  // the axes' labels, the seeds' value names, or key = value
      out << QString::fromStdString(plain[i]);
      continue;
    }
    const SweepSettings point = sweepPoint(s, i);
    // The point's communication and fusion (swept, or the scenario's own).
    std::string c = getValue(s, "scheme.communication"), f = getValue(s, "scheme.fusion");
    for (const auto& [key, value] : point) {
      if (key == "scheme.communication") c = value;
      if (key == "scheme.fusion") f = value;
    }
    const SchemePreset* preset = findSchemePreset(c, f);
    const QString name = preset ? preset->name : baselineName(c, f);
    if (name.isEmpty()) {
      out << QString::fromStdString(plain[i]);
      continue;
    }
    // The name, then the other axes' parts in order.
    QStringList parts{name};
    for (size_t a = 0; a < s.sweep.size(); ++a) {
      if (int(a) == comm || int(a) == fusion) continue;
      parts << axisPart(s.sweep[a], point[a].second);
    }
    out << parts.join(QStringLiteral(", "));
  }
  return out;
}

}  // namespace fl::gui
