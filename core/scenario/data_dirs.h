// Where the bundled scenarios live, so that the CLI and the GUI find them from a build
// tree, an installed package (/usr/share/fabriclab) or a `dpkg -x` scratch root alike.
#pragma once
#include <filesystem>
#include <string>

namespace fl {

// The bundled scenarios' directory: $FABRICLAB_DATA_DIR/scenarios when set; else
// <executable>/../share/fabriclab/scenarios (an installed tree, wherever its root is);
// else the source tree's scenarios/ (a build directory). Returns the installed path when
// none exists, so that an error can name where they were expected.
std::filesystem::path bundledScenarioDir();

// A scenario argument as typed: an existing path is returned unchanged; a bare name
// (no '/') that is not a file here is looked up among the bundled scenarios as NAME,
// NAME.yaml or NAME.yml (so `fabriclab-cli run default` works from any directory).
// Throws InputError naming `keyPath` when a bare name matches no bundled scenario;
// other paths are returned for the caller's usual readable-file check.
std::string resolveScenarioArgument(const std::string& argument, const std::string& keyPath);

}  // namespace fl
