// The "Follow one" bar under the canvas: what to follow (a GPU and its token or chunk, a
// piece of it) and, once the hops are recorded (setFollow), slow-motion playback over
// them: play/pause, a time slider over the first hop's start to the last hop's arrival,
// a speed stated as simulated time per wall-clock second, and a line saying what moves
// now ("3 packets on links: 1 request / read, 2 data / contribution; 7 of 19 hops done").
// Drives TopologyCanvas::setFollowTime through timeChanged.
#pragma once
#include <QTimer>
#include <QWidget>
#include <memory>

#include "engine/time.h"
#include "results/packet_follow.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace fl::views {

class FollowBar : public QWidget {
  Q_OBJECT
 public:
  explicit FollowBar(QWidget* parent = nullptr);

  // What the pickers mean for the workload shown ("token", "chunk", "to GPU") and their ranges.
  void setChoices(int gpus, const QString& itemName, int items, bool pieces);
  // Recorded hops (null: none yet) and what they are ("token 5 of GPU 2").
  void setFollow(std::shared_ptr<const PacketFollow> follow, const QString& description);
  void setBusy(const QString& message);  // while the hops are being recorded

  std::shared_ptr<const PacketFollow> follow() const { return follow_; }
  Time time() const { return time_; }
  void setTime(Time t);  // clamped to [first start, last arrival]
  Time firstTime() const;
  Time lastTime() const;
  double speed() const { return speed_; }  // simulated ps per wall-clock second
  void setSpeed(double psPerSecond);
  bool isPlaying() const { return timer_.isActive(); }
  QString statusText() const;
  QSpinBox* gpuBox() const { return gpu_; }
  QSpinBox* itemBox() const { return item_; }
  QSpinBox* pieceBox() const { return piece_; }
  QPushButton* followButton() const { return go_; }
  static constexpr int kTickMs = 33;

 public slots:
  void play();
  void pause();

 signals:
  void followRequested(int gpu, int item, int piece);
  void timeChanged(Time t);
  void closed();

 private:
  void tick();
  void updateStatus();

  QSpinBox *gpu_, *item_, *piece_;
  QLabel *itemLabel_, *pieceLabel_, *status_;
  QPushButton* go_;
  QToolButton *play_, *close_;
  QSlider* slider_;
  QComboBox* speedBox_;
  QTimer timer_;
  std::shared_ptr<const PacketFollow> follow_;
  QString description_;
  Time time_ = 0;
  double speed_ = 1000;  // 1 ns of simulated time per second
};

}  // namespace fl::views
