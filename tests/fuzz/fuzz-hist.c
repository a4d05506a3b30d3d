// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tracefs hist file as the kernel backend reads it (lib/hist): the whole
 * input is the file's text. Oracle: a parsed file's sections have as many
 * key values per entry as they name keys, each key's helpers (log2, u64,
 * sym) stay inside its text, a section found by its keys is one of the
 * file's, and parsing the same text twice gives the same tables.
 * Seeds: the real 6.12 and 7.3 hist files of tests/fixtures/real/hist.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>

#include "fuzz.h"
#include "obs/hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keysets[] = {"work,workqueue",	  "work",	    "function.sym,workqueue", "function.sym",
				      "fn.sym,wait.log2", "fn.sym,run.log2"};

static void check(const struct wq_hist *h)
{
	for (size_t s = 0; s < h->nsec; s++) {
		const struct wq_hist_sec *sec = &h->sec[s];

		if (sec->nkeys > WQ_HIST_KEYS || !sec->trigger || (sec->n && !sec->ent))
			abort();
		for (size_t k = 0; k < sec->nkeys; k++)
			if (!sec->name[k])
				abort();
		for (size_t i = 0; i < sec->n; i++) {
			for (size_t k = 0; k < sec->nkeys; k++) {
				const char *v = sec->ent[i].key[k], *sym = NULL;
				uint64_t addr;
				int l;

				if (!v)
					abort();
				l = wq_hist_log2(v);
				if (l < -1 || l > 64)
					abort();
				(void)wq_hist_u64(v, &addr);
				if (wq_hist_sym(v, &addr, &sym) == 0 && (!sym || sym < v || sym > v + strlen(v)))
					abort();
			}
		}
	}
	for (size_t i = 0; i < sizeof(keysets) / sizeof(keysets[0]); i++) {
		const struct wq_hist_sec *sec = wq_hist_section(h, keysets[i]);

		if (sec && (sec < h->sec || sec >= h->sec + h->nsec))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wq_hist a = {0}, b = {0};
	char why[200];
	int ra, rb;

	ra = wq_hist_parse(fuzz_str(data, size), &a, why, sizeof(why));
	rb = wq_hist_parse(fuzz_str(data, size), &b, why, sizeof(why));
	if (ra != rb || (ra == 0 && a.nsec != b.nsec))
		abort();
	if (ra == 0) {
		check(&a);
		for (size_t s = 0; s < a.nsec; s++)
			if (a.sec[s].n != b.sec[s].n || a.sec[s].hits != b.sec[s].hits)
				abort();
	} else if (ra != -EBADMSG && ra != -ENOMEM) {
		abort();
	}
	wq_hist_clear(&a);
	wq_hist_clear(&b);
	return 0;
}
