// The welcome page and scenario gallery: every bundled scenario with its name, its
// description, the system it stands for (the fabric and the seed paper its comments
// cite) and a picture of its fabric (drawn by the report's topology renderer), with
// Open. Shown on the first start and from Help > Welcome.
#pragma once
#include <QDialog>
#include <QList>

class QLabel;
class QListWidget;
class QPushButton;

namespace fl::gui {

struct GalleryEntry {
  QString path, name, description;
  QString system;  // "DGX-H100: 8 GPUs, 4 NVSwitch chips"
  QString seed;    // "DySHARP (seed 000)", "" when the comments cite none
};

// Bundled scenarios: $FABRICLAB_SCENARIOS_DIR, else the source tree's scenarios/.
QString bundledScenarioDirectory();
// The default demo first, then the others by file name; unreadable files are left out.
QList<GalleryEntry> galleryEntries(const QString& directory);

class WelcomeDialog : public QDialog {
  Q_OBJECT
 public:
  explicit WelcomeDialog(const QList<GalleryEntry>& entries, QWidget* parent = nullptr);

  QListWidget* gallery() const { return list_; }
  QString chosenPath() const;  // after accept()
  QLabel* picture() const { return picture_; }

 private:
  void showEntry(int row);

  QList<GalleryEntry> entries_;
  QListWidget* list_;
  QLabel *picture_, *details_;
  QPushButton* open_;
};

}  // namespace fl::gui
