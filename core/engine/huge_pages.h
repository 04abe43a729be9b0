// Transparent huge pages for the simulator's heap. A packet-level run touches hundreds of
// megabytes of small objects (packets, queue nodes, reduction-buffer entries, credits in
// flight) in no useful order, so with 4 KiB pages many of those touches also miss the
// TLB. glibc's malloc asks the kernel for 2 MiB pages (madvise) when its tunable
// glibc.malloc.hugetlb=1 is set, but tunables are read only when a process starts: a
// program that wants them re-executes itself once with the tunable added.
//
// Measured (bench_moe "dysharp, 256", 4096 tokens per GPU, 256 B packets): 70.7 s with
// 4 KiB pages, 63.4 s with huge pages in one back-to-back pair; a 128-token run 12 % faster
// over 8 alternating pairs. Results never depend on it.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace fl {

// Call first in main(), before any thread or output. Re-executes the program with
// GLIBC_TUNABLES extended by glibc.malloc.hugetlb=1 and returns only when it does not:
// the tunable is set already (by the user or a previous exec), FABRICLAB_HUGE_PAGES
// is 0, off, false or no, the program runs under valgrind (which would not follow the exec), the
// kernel has transparent huge pages off or always on, or the exec fails.
void reexecWithHugePages(char** argv);

// The GLIBC_TUNABLES value to restart with, given its current value, the settings of
// FABRICLAB_HUGE_PAGES and LD_PRELOAD (null: unset) and the kernel's mode line from
// /sys/kernel/mm/transparent_hugepage/enabled; nothing when no restart is wanted.
std::optional<std::string> hugePageTunables(const char* current, const char* optOut, const char* preload,
                                            std::string_view kernelMode);

}  // namespace fl
