// SPDX-License-Identifier: GPL-2.0-or-later
/* UTF-8 validation and text made safe for terminals and the Prometheus format (text.h). */
#include "text.h"

#include <stdlib.h>
#include <string.h>

size_t wq_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0; /* a continuation byte, an overlong lead (c0, c1) or beyond f4 */
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* overlong three- and four-byte forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool wq_text_is_control(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	if (len == 1)
		return (p[0] < 0x20 && p[0] != '\t' && p[0] != '\n') || p[0] == 0x7f;
	/* C1: U+0080 to U+009F, c2 80 to c2 9f */
	return len == 2 && p[0] == 0xc2 && p[1] <= 0x9f;
}

char *wq_text_safe(const char *s, bool keep_lf)
{
	size_t n = strlen(s), o = 0;
	/* at worst every byte becomes the three of U+FFFD */
	char *out = malloc(3 * n + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t len = wq_utf8_len(s + i);

		if (len == 0 || wq_text_is_control(s + i, len) || (!keep_lf && s[i] == '\n')) {
			memcpy(out + o, WQ_TEXT_REPLACEMENT, 3);
			o += 3;
			i += len ? len : 1;
			continue;
		}
		memcpy(out + o, s + i, len);
		o += len;
		i += len;
	}
	out[o] = '\0';
	return out;
}

bool wq_value_has_ctrl(const char *v)
{
	for (; v && *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return true;
	return false;
}
