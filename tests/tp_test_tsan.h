/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * TP_TEST_TSAN: 1 in a build under ThreadSanitizer (gcc says so with
 * __SANITIZE_THREAD__, clang with __has_feature), else 0. For the tests
 * whose faults TSan's runtime cannot take (a handler re-entering it, or
 * running a program's handlers late with every signal blocked).
 */
#ifndef TP_TEST_TSAN_H
#define TP_TEST_TSAN_H

#if defined(__SANITIZE_THREAD__)
#define TP_TEST_TSAN	1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TP_TEST_TSAN	1
#endif
#endif
#ifndef TP_TEST_TSAN
#define TP_TEST_TSAN	0
#endif

#endif /* TP_TEST_TSAN_H */
