// Playback over the run's time bins: a slider, "bin i / n" and the bin's simulated time,
// play/pause, step back/forward, a speed choice (bins per tick) and a loop toggle. A
// 30 Hz timer advances RunModel::setCurrentBin while playing. During a live run the
// "live" button keeps the newest bin in view (RunModel::followLive); moving the slider
// by hand stops following.
#pragma once
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace fl::views {

class RunModel;

class TimelineBar : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineBar(RunModel* model, QWidget* parent = nullptr);

  bool isPlaying() const { return timer_.isActive(); }
  double speed() const { return speed_; }  // bins per tick
  bool isLooping() const;
  void setLooping(bool on);
  static constexpr int kTickMs = 33;  // ~30 frames per second

 public slots:
  void play();
  void pause();
  void togglePlay();
  void stepForward();
  void stepBack();
  void setSpeed(double binsPerTick);

 signals:
  void playingChanged(bool playing);

 private:
  void tick();
  void sync();  // widgets from the model
  void userMovedTo(int bin);

  RunModel* model_;
  QToolButton *play_, *back_, *forward_, *loop_, *live_;
  QSlider* slider_;
  QLabel *binLabel_, *timeLabel_;
  QComboBox* speedBox_;
  QTimer timer_;
  double speed_ = 1, carry_ = 0;
  bool syncing_ = false;
};

}  // namespace fl::views
