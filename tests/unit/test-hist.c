// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hist file reader on files Debian's 6.12 and 7.3 wrote in
 * make bench-monitor (tests/fixtures/real/README.md: trimmed to the first 12
 * and last 3 entries of each section, lines unchanged). The expected values
 * are read off the files by eye: the first and last entry lines, the
 * "Totals:" blocks and the trigger lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/obs/hist.h"
#include "tap.h"

static char *slurp(const char *kernel, const char *name)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "real/hist/debian-%s/%s", kernel, name);
	return tap_fixture(rel);
}

static int load(const char *kernel, const char *name, struct wq_hist *h)
{
	char why[256] = "";
	char *text = slurp(kernel, name);
	int r;

	if (!text)
		return -ENOENT;
	r = wq_hist_parse(text, h, why, sizeof(why));
	if (r < 0)
		printf("# %s: %s\n", name, why);
	return r;
}

static void bad(const char *text, const char *want, const char *desc)
{
	struct wq_hist h;
	char why[256] = "";
	int r = wq_hist_parse(strdup(text), &h, why, sizeof(why));

	ok(r == -EBADMSG && strstr(why, want), "%s (%s)", desc, why);
}

int main(void)
{
	struct wq_hist h;
	const struct wq_hist_sec *s;
	uint64_t u = 0;
	const char *sym;

	/* 7.3: queue_work holds two hists: the counts by work and workqueue, then the ts0 variable by work */
	ok(load("7.3", "workqueue_queue_work.hist", &h) == 0, "7.3 queue_work: parsed");
	ok(h.nsec == 2, "two sections (two hist triggers on the event)");
	s = wq_hist_section(&h, "work,workqueue");
	ok(s && s->nkeys == 2 && !strcmp(s->name[0], "work") && !strcmp(s->name[1], "workqueue"),
	   "keys work, workqueue");
	ok(s && s->n == 15, "15 entries (12 + 3 kept)");
	ok(s && s->hits == 239716 && s->entries == 4133 && s->dropped == 0,
	   "Totals: 239716 hits, 4133 entries, 0 dropped");
	is_str(s ? s->trigger : NULL, "hist:keys=work,workqueue:vals=hitcount:sort=hitcount:size=16384",
	       "the trigger, ' [active]' cut");
	is_str(s ? s->ent[0].key[0] : NULL, "18446744072263454832", "first entry: the work pointer in decimal");
	is_str(s ? s->ent[0].key[1] : NULL, "events_power_efficient", "... its workqueue, padding cut");
	ok(s && s->ent[0].hitcount == 1, "... hitcount 1");
	is_str(s ? s->ent[14].key[1] : NULL, "wqflood", "last entry: wqflood");
	ok(s && s->ent[14].hitcount == 60, "... hitcount 60");
	ok(s && wq_hist_u64(s->ent[14].key[0], &u) == 0 && u == 18404120831159497568ULL,
	   "... work 18404120831159497568");
	s = wq_hist_section(&h, "work");
	ok(s && s->n == 15 && s->nkeys == 1 && s->hits == 239716,
	   "the ts0 hist by work alone: 15 entries, 239716 hits");
	is_str(s ? s->ent[0].key[0] : NULL, "18446744072263454832", "... its first work");
	ok(!wq_hist_section(&h, "work,function"), "no section for keys it does not have");
	wq_hist_clear(&h);

	/* 6.12: the synthetic wait event keyed by function symbol and log2 bucket */
	ok(load("6.12", "wqb_w.hist", &h) == 0, "6.12 wqb_w: parsed");
	s = wq_hist_section(&h, "fn.sym,wait.log2");
	ok(s && s->nkeys == 2 && !strcmp(s->name[0], "fn") && !strcmp(s->name[1], "wait"),
	   "keys fn, wait (modifiers cut)");
	ok(s && s->n == 15 && s->hits == 247873 && s->entries == 46 && s->dropped == 0,
	   "15 entries; Totals 247873 hits, 46 entries, 0 dropped");
	is_str(s ? s->ent[0].key[0] : NULL, "[ffffffffa2a21b30] flush_memcg_stats_dwork",
	       "a .sym key: address and symbol");
	ok(s && wq_hist_log2(s->ent[0].key[1]) == 12, "~ 2^12 is bucket 12");
	ok(s && wq_hist_log2(s->ent[1].key[1]) == 8, "'~ 2^8 ' (padded) is bucket 8");
	is_str(s ? s->ent[14].key[0] : NULL, "[ffffffffc0954050] flood_fn [wqprobe]",
	       "a module's symbol: [module] kept");
	ok(s && wq_hist_log2(s->ent[14].key[1]) == 15 && s->ent[14].hitcount == 82723,
	   "the flood's 2^15 bucket: 82723");
	wq_hist_clear(&h);

	/* every fixture parses, on both kernels; a section's entries never exceed its Entries */
	static const char *const files[] = {"workqueue_queue_work.hist",
					    "workqueue_activate_work.hist",
					    "workqueue_execute_start.hist",
					    "workqueue_execute_end.hist",
					    "wqb_w.hist",
					    "wqb_r.hist"};
	static const char *const kernels[] = {"6.12", "7.3"};
	for (size_t k = 0; k < 2; k++)
		for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			int r = load(kernels[k], files[f], &h), sane = r == 0 && h.nsec > 0;

			for (size_t i = 0; sane && i < h.nsec; i++)
				sane = h.sec[i].n > 0 && h.sec[i].n <= h.sec[i].entries;
			ok(sane, "%s %s: %zu sections, each with entries", kernels[k], files[f], h.nsec);
			wq_hist_clear(&h);
		}

	ok(wq_hist_log2("~ 2^0") == 0 && wq_hist_log2("2^3") == -1 && wq_hist_log2("~ 2^x") == -1,
	   "log2: '~ 2^0' is 0; no '~ ' or no number is not a bucket");
	ok(wq_hist_u64("12x", &u) == -EINVAL && wq_hist_u64("-1", &u) == -EINVAL, "u64: '12x' and '-1' are not");

	/* a .sym key as 7.3 printed it (wqb_w.hist, line 18: the flood's function, in the probe module) */
	{
		uint64_t a = 0;

		s = load("7.3", "wqb_w.hist", &h) == 0 ? wq_hist_section(&h, "fn.sym,wait.log2") : NULL;
		sym = NULL;
		ok(s && s->n > 12 && wq_hist_sym(s->ent[12].key[0], &a, &sym) == 0 && a == 0xffffffffc0e00010ULL &&
		       sym && !strcmp(sym, "flood_fn [wqprobe]"),
		   "sym: '[ffffffffc0e00010] flood_fn [wqprobe]' is that address and 'flood_fn [wqprobe]'");
		wq_hist_clear(&h);
	}
	ok(wq_hist_sym("ffffffff81000000 x", &u, &sym) == -EINVAL &&
	       wq_hist_sym("[ffffffff81000000]", &u, &sym) == -EINVAL && wq_hist_sym("[zz] x", &u, &sym) == -EINVAL,
	   "sym: no brackets, no symbol, or no hex address is not a .sym value");

	bad("{ work: 1 } hitcount: 1\n", "not an entry of a section", "an entry before any trigger info");
	bad("# trigger info: hist:keys=work:vals=hitcount [active]\n{ wq: 1 } hitcount: 1\n", "line 2",
	    "an entry whose key is not the trigger's");
	bad("# trigger info: hist:keys=work:vals=hitcount [active]\n{ work: 1 } hitcount: many\n", "line 2",
	    "a hitcount that is not a number");
	bad("# trigger info: hist:vals=hitcount [active]\n", "no keys", "a trigger without keys");
	return tap_done();
}
