// TopologyCanvas: the find box (Ctrl+F) and jumping to a device by name.
#include <algorithm>

#include "views/canvas_find_box.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

namespace fl::views {

namespace {
constexpr double kFoundBoxPixels = 40;  // a found device is shown at least this tall
constexpr double kMaxFindScale = 8;     // the canvas's zoom limit
}  // namespace

void TopologyCanvas::openFindBox() {
  QStringList names;
  if (const topo::Topology* t = model_->topology())
    for (const auto& n : t->nodes()) names << QString::fromStdString(n.name);
  findBox_->setNames(names);
  placeFindBox();
  findBox_->open();
}

void TopologyCanvas::placeFindBox() {
  const int w = std::min(280, viewport()->width() - 16);
  findBox_->setGeometry(viewport()->width() - w - 8, 8, w, findBox_->sizeHint().height());
}

bool TopologyCanvas::findNode(const QString& name) {
  const topo::Topology* t = model_->topology();
  const QString wanted = name.trimmed();
  if (!t || wanted.isEmpty()) return false;
  int found = -1;
  for (const auto& n : t->nodes())
    if (QString::fromStdString(n.name).compare(wanted, Qt::CaseInsensitive) == 0) {
      found = n.id;
      break;
    }
  for (size_t i = 0; found < 0 && i < t->nodes().size(); ++i)
    if (QString::fromStdString(t->nodes()[i].name).contains(wanted, Qt::CaseInsensitive)) found = t->nodes()[i].id;
  if (found < 0) return false;

  fitMode_ = FitMode::User;  // before any rebuild: room around the fabric to centre it
  // Open the group of every switch above it (a hierarchy's groups are its switches').
  const auto node = static_cast<size_t>(found);
  if (node < layout_.nodes.size() && !layout_.nodes[node].visible) {
    bool opened = false;
    for (int a = t->node(found).parent; a >= 0; a = t->node(a).parent)
      for (size_t g = 0; g < layout_.groups.size(); ++g)
        if (layout_.groups[g].switchNode == a) opened |= options_.expandedGroups.insert(static_cast<int>(g)).second;
    if (opened) rebuild();
  }
  model_->select(SelectionKind::Node, found);
  if (node >= layout_.nodes.size()) return true;
  const auto& p = layout_.nodes[node];
  const double s = transform().m11();
  const double size = std::max(1.0, std::min(p.width, p.height));
  if (size * s < kFoundBoxPixels) {
    const double k = std::min(kMaxFindScale, kFoundBoxPixels / size);
    setTransform(QTransform::fromScale(k, k));
  }
  updateViewRect();
  centerOn(p.center.x, p.center.y);
  return true;
}

}  // namespace fl::views
