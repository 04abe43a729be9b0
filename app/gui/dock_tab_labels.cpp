#include "gui/dock_tab_labels.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QPointer>
#include <QProxyStyle>
#include <QStyleOptionTab>
#include <QTabBar>
#include <QVariant>

namespace fl::gui {

namespace {

// Short labels by dock object name; the others are short already.
QString shortLabel(const QString& objectName) {
  static const struct {
    const char* name;
    const char* label;
  } labels[] = {
      {"BreakdownDock", QT_TRANSLATE_NOOP("DockTab", "Traffic")},
      {"SwitchTablesDock", QT_TRANSLATE_NOOP("DockTab", "Tables")},
      {"MergeTableDock", QT_TRANSLATE_NOOP("DockTab", "Merge")},
      {"CaisCompareDock", QT_TRANSLATE_NOOP("DockTab", "Compare")},
      {"XdcCurveDock", QT_TRANSLATE_NOOP("DockTab", "Curve")},
      {"HotColdDock", QT_TRANSLATE_NOOP("DockTab", "Hot/Cold")},
      {"FusionDock", QT_TRANSLATE_NOOP("DockTab", "Fusion")},
  };
  for (const auto& l : labels)
    if (objectName == QLatin1String(l.name)) return QCoreApplication::translate("DockTab", l.label);
  return {};
}

// The dock behind tab `index` of one of the window's tab bars: Qt keeps its address as
// the tab's data (QDockAreaLayoutInfo::updateTabBar).
const QDockWidget* dockOfTab(const QTabBar& bar, int index) {
  const auto id = bar.tabData(index).value<quintptr>();
  for (const QDockWidget* d : bar.parentWidget()->findChildren<QDockWidget*>())
    if (reinterpret_cast<quintptr>(d) == id) return d;
  return nullptr;
}

// The tab of `bar` that `opt` draws (by its text: dock titles differ), or -1.
int tabAt(const QTabBar& bar, const QStyleOptionTab& opt) {
  for (int i = 0; i < bar.count(); ++i)
    if (bar.tabText(i) == opt.text) return i;
  return -1;
}

// Draws and measures a dock tab with its label instead of the dock's title.
class DockTabStyle : public QProxyStyle {
 public:
  using QProxyStyle::QProxyStyle;

  QSize sizeFromContents(ContentsType type, const QStyleOption* option, const QSize& size,
                         const QWidget* widget) const override {
    QSize s = size;
    if (type == CT_TabBarTab)
      if (const auto* tab = qstyleoption_cast<const QStyleOptionTab*>(option)) {
        const QString label = labelOf(*tab, widget);
        if (label != tab->text)  // the bar measured the title: take off what the label saves
          s.rwidth() -= tab->fontMetrics.size(Qt::TextShowMnemonic, tab->text).width() -
                        tab->fontMetrics.size(Qt::TextShowMnemonic, label).width();
      }
    return QProxyStyle::sizeFromContents(type, option, s, widget);
  }

  void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                   const QWidget* widget) const override {
    if (element == CE_TabBarTabLabel)
      if (const auto* tab = qstyleoption_cast<const QStyleOptionTab*>(option)) {
        QStyleOptionTab copy(*tab);
        copy.text = labelOf(*tab, widget);
        QProxyStyle::drawControl(element, &copy, painter, widget);
        return;
      }
    QProxyStyle::drawControl(element, option, painter, widget);
  }

 private:
  static QString labelOf(const QStyleOptionTab& tab, const QWidget* widget) {
    const auto* bar = qobject_cast<const QTabBar*>(widget);
    if (!bar || !bar->parentWidget()) return tab.text;
    const int i = tabAt(*bar, tab);
    const QDockWidget* dock = i < 0 ? nullptr : dockOfTab(*bar, i);
    return dock ? dockTabLabel(*dock) : tab.text;
  }
};

QStyle* dockTabStyle() {
  // One for the application's lifetime: widgets do not own their style.
  static QPointer<QStyle> style;
  if (!style) {
    style = new DockTabStyle;
    style->setParent(qApp);
  }
  return style;
}

void applyTo(QTabBar* bar) {
  if (bar->style() != dockTabStyle()) bar->setStyle(dockTabStyle());
  bar->setElideMode(Qt::ElideNone);
  bar->setUsesScrollButtons(true);  // a last resort, below ~900 px (see the header)
}

// Catches the tab bars QMainWindow creates as docks are tabbed.
class TabBarWatcher : public QObject {
 public:
  using QObject::QObject;
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::ChildPolished)
      if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child()))
        if (bar->parent() == watched) applyTo(bar);
    return false;
  }
};

}  // namespace

QString dockTabLabel(const QDockWidget& dock) {
  const QString label = shortLabel(dock.objectName());
  return label.isEmpty() ? dock.windowTitle() : label;
}

void installDockTabLabels(QMainWindow* window) {
  for (QTabBar* bar : window->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) applyTo(bar);
  window->installEventFilter(new TabBarWatcher(window));
}

}  // namespace fl::gui
