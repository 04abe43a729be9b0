// Whether this build runs under ThreadSanitizer (packaging/setup.sh tsan). TSan cannot
// see the synchronisation inside libtbb (not instrumented) and reports every hand-over
// between TBB tasks as a race: sanitised builds run their parallel loops on plain
// threads instead, whose start and join it does see. GCC defines __SANITIZE_THREAD__,
// Clang only answers __has_feature(thread_sanitizer).
#pragma once

namespace fl {
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#else
inline constexpr bool kThreadSanitizer = false;
#endif
}  // namespace fl
