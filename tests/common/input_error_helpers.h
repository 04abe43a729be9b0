// Shared by the scenario-layer tests: loading the good fixtures and catching the one
// error type every bad input must raise.
#pragma once
#include <QString>
#include <stdexcept>

#include "scenario/input_error.h"
#include "scenario/scenario_io.h"

namespace fl::test {

inline const QString kTestData = QStringLiteral(FABRICLAB_TEST_DATA);

inline Scenario loadGood(const char* name) {
  return loadScenario((kTestData + "/good/" + name).toStdString());
}

// Runs `f`, which must throw InputError; returns it.
template <class F>
InputError expectError(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  throw std::runtime_error("expected an InputError");
}

}  // namespace fl::test
