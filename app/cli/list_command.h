// `fabriclab-cli list`: the bundled scenarios (or those in --dir), one line each.
#pragma once
#include <string>

namespace fl::cli {

// Prints each scenario file's name and the first line of its description (or its name,
// or why it does not load); returns the exit status. Throws InputError for a missing
// directory. An empty `dir` means the bundled scenarios (scenario/data_dirs.h).
int listScenarios(const std::string& dir);

}  // namespace fl::cli
