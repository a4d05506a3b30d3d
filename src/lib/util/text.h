/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text that came from the kernel or a user, made safe for other programs
 * and terminals: workqueue names are built from interface and device names
 * and may hold nearly any byte. UTF-8 validation, and a copy in which what
 * a terminal or the Prometheus format cannot take is U+FFFD.
 */
#ifndef WQ_TEXT_H
#define WQ_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER in UTF-8 */
#define WQ_TEXT_REPLACEMENT "\xef\xbf\xbd"

/*
 * The length (1 to 4) of the well-formed UTF-8 character at s (no overlong
 * form, no surrogate, at most U+10FFFF), or 0 when the bytes there are not one.
 */
size_t wq_utf8_len(const char *s);
/* Is c at s a control character a terminal acts on (C0 but for tab and line feed, DEL, C1)? len: wq_utf8_len(s). */
bool wq_text_is_control(const char *s, size_t len);
/*
 * A copy of s (malloc'ed, NULL: out of memory) in which every byte that is
 * not well-formed UTF-8 and every control character (keep_lf: but line
 * feeds) is U+FFFD.
 */
char *wq_text_safe(const char *s, bool keep_lf);
/*
 * Does v hold a C0 control character or DEL? A value as the kernel prints
 * it has none (one trailing newline is stripped on read); a line of
 * wqctl's tab-separated files must not.
 */
bool wq_value_has_ctrl(const char *v);

#endif
