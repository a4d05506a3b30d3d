// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel releases and the workqueue rules that change with them. */
#include "kver.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int num(const char **p)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v > 100000)
			return -1;
		(*p)++;
	}
	return (int)v;
}

int wq_kver_parse(const char *release, struct wq_kver *kv)
{
	const char *p = release;

	memset(kv, 0, sizeof(*kv));
	snprintf(kv->release, sizeof(kv->release), "%s", release);
	/*
	 * A release is printable ASCII (UTS_RELEASE); a tree's osrelease may hold
	 * anything, and the release is printed to terminals and label values
	 * (issue 60 item 4): any other byte is '?' (a trailing newline ends it).
	 */
	for (char *c = kv->release; *c; c++) {
		if (*c == '\n' && !c[1])
			*c = '\0';
		else if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
			*c = '?';
	}
	kv->major = num(&p);
	if (kv->major < 0 || *p != '.')
		return -EINVAL;
	p++;
	kv->minor = num(&p);
	if (kv->minor < 0)
		return -EINVAL;
	kv->patch = 0;
	if (*p == '.') {
		p++;
		kv->patch = num(&p);
		if (kv->patch < 0)
			return -EINVAL;
	}
	/* Anything after is a local suffix ("-27-amd64", "-rc3", "+"). */
	if (*p && *p != '-' && *p != '+' && *p != '_' && *p != '~')
		return -EINVAL;
	kv->known = true;
	return 0;
}

int wq_kver_cmp(const struct wq_kver *kv, int major, int minor, int patch)
{
	if (!kv->known)
		return 0;
	if (kv->major != major)
		return kv->major < major ? -1 : 1;
	if (kv->minor != minor)
		return kv->minor < minor ? -1 : 1;
	if (kv->patch != patch)
		return kv->patch < patch ? -1 : 1;
	return 0;
}

enum wq_era wq_kver_era(const struct wq_kver *kv, int era_c_symbol, const char **why)
{
	static const char *unknown = "kernel release unknown (use --kernel RELEASE)";
	static const char *ambiguous =
	    "this 6.6.y-6.8.y release may carry the reverted 6.9 backport; /proc/kallsyms decided";

	*why = NULL;
	if (!kv->known) {
		*why = unknown;
		return WQ_ERA_UNKNOWN;
	}
	if (wq_kver_cmp(kv, 6, 6, 0) < 0)
		return WQ_ERA_A;
	if (wq_kver_cmp(kv, 6, 9, 0) >= 0)
		return WQ_ERA_C;
	/*
	 * 6.6.y >= 6.6.25 and 6.8.y >= 6.8.4 reverted the era-C backport;
	 * earlier stable releases of 6.6-6.8 may carry it (6.8.3 did).
	 */
	if ((kv->minor == 6 && kv->patch >= 25) || (kv->minor == 8 && kv->patch >= 4))
		return WQ_ERA_B;
	if (kv->minor == 8 && kv->patch == 3)
		return WQ_ERA_C;
	if (kv->patch == 0 || era_c_symbol < 0)
		return WQ_ERA_B;
	*why = ambiguous;
	return era_c_symbol ? WQ_ERA_C : WQ_ERA_B;
}

const char *wq_era_name(enum wq_era era)
{
	switch (era) {
	case WQ_ERA_A: return "per-node";
	case WQ_ERA_B: return "per-cpu";
	case WQ_ERA_C: return "split";
	default: return NULL;
	}
}

int wq_kver_max_active(const struct wq_kver *kv, bool unbound, unsigned int nr_possible)
{
	if (!kv->known)
		return 0;
	if (wq_kver_cmp(kv, 6, 13, 0) >= 0)
		return 2048;
	if (unbound && wq_kver_cmp(kv, 6, 6, 0) < 0) {
		unsigned int l = 4 * nr_possible;

		return l > 512 ? (int)l : 512;
	}
	return 512;
}

int wq_kver_dfl_active(const struct wq_kver *kv)
{
	if (!kv->known)
		return 0;
	return wq_kver_cmp(kv, 6, 13, 0) >= 0 ? 1024 : 256;
}

bool wq_kver_nohz_restricts_root(const struct wq_kver *kv)
{
	return kv->known && wq_kver_cmp(kv, 7, 0, 0) < 0;
}

int wq_kver_name_sharers(const struct wq_kver *kv, const char *name, const char **which)
{
	*which = NULL;
	if (!kv->known || wq_kver_cmp(kv, 6, 17, 0) < 0)
		return 1;
	if (!strcmp(name, "events"))
		*which = "system_percpu_wq and system_wq";
	else if (!strcmp(name, "events_unbound"))
		*which = "system_dfl_wq and system_unbound_wq";
	return *which ? 2 : 1;
}

int wq_kver_dfl_min_active(const struct wq_kver *kv)
{
	return kv->known && wq_kver_cmp(kv, 6, 9, 0) >= 0 ? 8 : 0;
}
