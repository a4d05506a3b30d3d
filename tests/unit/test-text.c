// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * UTF-8 validation and safe text (lib/text): the cases of RFC 3629 worked
 * out by hand (overlong forms, surrogates, beyond U+10FFFF, cut sequences),
 * and the control characters a terminal acts on (issue 60 item 4).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/util/text.h"
#include "tap.h"

int main(void)
{
	static const struct {
		const char *s;
		size_t len;
		const char *what;
	} cases[] = {
	    {"a", 1, "ASCII"},
	    {"\xc3\xa9", 2, "U+00E9, two bytes"},
	    {"\xe2\x82\xac", 3, "U+20AC, three bytes"},
	    {"\xf0\x9f\x98\x80", 4, "U+1F600, four bytes"},
	    {"\xf4\x8f\xbf\xbf", 4, "U+10FFFF, the last"},
	    {"\xff", 0, "0xff, never in UTF-8"},
	    {"\x80", 0, "a lone continuation byte"},
	    {"\xc0\xaf", 0, "an overlong '/' (c0)"},
	    {"\xe0\x80\xaf", 0, "an overlong '/' in three bytes"},
	    {"\xf0\x80\x80\xaf", 0, "an overlong '/' in four bytes"},
	    {"\xed\xa0\x80", 0, "a surrogate, U+D800"},
	    {"\xf4\x90\x80\x80", 0, "U+110000, beyond the last"},
	    {"\xe2\x82", 0, "a sequence cut short"},
	};
	char *t;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(wq_utf8_len(cases[i].s) == cases[i].len, "%s: %zu", cases[i].what, cases[i].len);
	ok(wq_text_is_control("\x1b", 1) && wq_text_is_control("\x7f", 1) && wq_text_is_control("\xc2\x9b", 2) &&
	       !wq_text_is_control("\t", 1) && !wq_text_is_control("\xc2\xa0", 2),
	   "ESC, DEL and the C1 CSI are controls; tab and U+00A0 are not");
	t = wq_text_safe("eth\xff"
			 "0\x1b[31m\xc3\xa9",
			 false);
	ok(t && !strcmp(t, "eth" WQ_TEXT_REPLACEMENT "0" WQ_TEXT_REPLACEMENT "[31m\xc3\xa9"),
	   "an invalid byte and ESC become U+FFFD, the rest stays");
	free(t);
	t = wq_text_safe("a\nb", true);
	ok(t && !strcmp(t, "a\nb"), "a line feed stays where asked");
	free(t);
	return tap_done();
}
