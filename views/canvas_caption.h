// The canvas's top-left caption (the fabric, what the colours show) kept whole in a
// narrow canvas: its lines are broken at spaces to the room there is, never cut at the
// viewport's edge ("... 18 links/GPU (per chip 5" at 1024 x 768). The label keeps the
// text as set (captionText) for comparisons and exports; what it shows may add breaks.
#pragma once
#include <QString>

class QLabel;

namespace fl::views {

// Sets the caption's text and fits it into `room` pixels (the label's padding included).
void setCaptionText(QLabel* label, const QString& text, int room);
// Re-fits the text last set into `room` (after a resize).
void fitCaption(QLabel* label, int room);
QString captionText(const QLabel* label);
// `text`'s lines broken at spaces so each is at most `width` pixels wide in `label`'s
// font where a break exists (a single word wider than that stays whole).
QString wrapCaption(const QLabel* label, const QString& text, int width);

}  // namespace fl::views
