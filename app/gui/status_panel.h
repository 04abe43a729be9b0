// The status bar: a message area (inline errors in red), the simulated time of the
// current bin, the run's progress and the events per second of the last run.
#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;
class QTimer;

namespace fl::views {
class RunModel;
}

namespace fl::gui {

class RunController;

class StatusPanel : public QObject {
  Q_OBJECT
 public:
  StatusPanel(QStatusBar* bar, views::RunModel* model, RunController* controller);

  QString message() const;
  QString timeText() const;
  QString rateText() const;
  int progressPercent() const;

 public slots:
  void showInfo(const QString& text, int timeoutMs = 5000);
  void showError(const QString& text);  // stays until the next message
  void clearMessage();

 private:
  void updateTime();
  void setMessage(const QString& text, bool error, int timeoutMs);

  views::RunModel* model_;
  QLabel* message_;
  QLabel* time_;
  QProgressBar* progress_;
  QLabel* rate_;
  QTimer* clearTimer_;
  QElapsedTimer wall_;
  int points_ = 0;
};

// "1.23 M events/s"; a run without events (closed-form model) says so instead of "0 events/s".
QString formatRate(double eventsPerSecond);

}  // namespace fl::gui
