// Wall-clock waits of the tests (a run to finish, a snapshot to arrive) scaled by
// FABRICLAB_TEST_WAIT_SCALE: sanitised builds (tests/CMakeLists.txt sets 10 there) run
// several times slower, and slower still on a loaded machine. Only how long a test waits
// changes, never what it waits for.
#pragma once
#include <QtGlobal>

#include <algorithm>

namespace fl::test {

inline int waitMs(int ms) {
  static const int scale = std::max(1, qEnvironmentVariableIntValue("FABRICLAB_TEST_WAIT_SCALE"));
  return ms * scale;
}

}  // namespace fl::test
