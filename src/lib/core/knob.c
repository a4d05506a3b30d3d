// SPDX-License-Identifier: GPL-2.0-or-later
/* The global knob table: root masks, module parameters and boot-only parameters. */
#define _GNU_SOURCE
#include "knob.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/macro.h"

#define PARAM(n) WQ_P_PARAMS "/" n

const struct wq_knob_desc wq_knob_descs[] = {
    {"cpumask", WQ_P_WQ "/cpumask", WQ_V_CPUMASK, 0, 0, false, false, "4.2",
     "root mask of CPUs unbound workqueues may use"},
    {"cpumask_requested", WQ_P_WQ "/cpumask_requested", WQ_V_CPUMASK, 0, 0, true, false, "6.8",
     "root mask as last requested (boot value or last write)"},
    {"cpumask_isolated", WQ_P_WQ "/cpumask_isolated", WQ_V_CPUMASK, 0, 0, true, false, "6.8",
     "CPUs excluded by cpuset isolated partitions or isolcpus="},
    {"default_affinity_scope", PARAM("default_affinity_scope"), WQ_V_SCOPE, 0, 0, false, false, "6.6",
     "affinity scope of workqueues set to 'default'"},
    {"power_efficient", PARAM("power_efficient"), WQ_V_YN, 0, 0, true, true, "3.11",
     "make power-efficient workqueues unbound"},
    {"disable_numa", PARAM("disable_numa"), WQ_V_YN, 0, 0, true, true, "3.10",
     "disable NUMA affinity of unbound pools (until 6.5)"},
    {"unbound_cpus", NULL, WQ_V_CPUMASK, 0, 0, true, true, "6.6", "boot-time unbound cpumask (CPU list)"},
    {"debug_force_rr_cpu", PARAM("debug_force_rr_cpu"), WQ_V_YN, 0, 0, false, false, "4.5",
     "round-robin unbound work over CPUs (debugging)"},
    {"watchdog_thresh", PARAM("watchdog_thresh"), WQ_V_INT, 0, 1000000, false, false, "4.5",
     "stall watchdog threshold in seconds, 0 = off"},
    {"panic_on_stall", PARAM("panic_on_stall"), WQ_V_INT, 0, UINT_MAX, false, false, "6.12",
     "panic after this many stall detections, 0 = never"},
    {"cpu_intensive_thresh_us", PARAM("cpu_intensive_thresh_us"), WQ_V_INT, 0, LONG_MAX, false, false, "6.5",
     "per-cpu work running longer leaves concurrency management, 0 = off"},
    {"cpu_intensive_warning_thresh", PARAM("cpu_intensive_warning_thresh"), WQ_V_INT, 0, UINT_MAX, false, false, "6.9",
     "report work that goes CPU-intensive this often, 0 = off"},
    {"panic_on_stall_time", PARAM("panic_on_stall_time"), WQ_V_INT, 0, UINT_MAX, false, false, "7.0",
     "panic when a stall lasts this many seconds, 0 = never"},
    {"cache_shard_size", PARAM("cache_shard_size"), WQ_V_INT, 1, UINT_MAX, true, true, "7.1",
     "most cores per cache_shard pod (the default affinity scope from 7.1)"},
};
const unsigned int wq_knob_ndescs = ARRAY_SIZE(wq_knob_descs);

const char *wq_knob_default(struct wq_ctx *ctx, const struct wq_knob_desc *d)
{
	static const struct {
		const char *name, *value;
	} dflt[] = {
	    {"debug_force_rr_cpu", "N"},
	    {"watchdog_thresh", "30"},
	    {"panic_on_stall", "0"},
	    {"cpu_intensive_thresh_us", "10000"},
	    {"cpu_intensive_warning_thresh", "4"},
	    {"panic_on_stall_time", "0"},
	};

	if (streq(d->name, "default_affinity_scope"))
		return wq_has_cache_shard(ctx) ? "cache_shard" : "cache";
	for (size_t i = 0; i < ARRAY_SIZE(dflt); i++)
		if (streq(dflt[i].name, d->name))
			return dflt[i].value;
	return NULL;
}

static const struct wq_knob_desc *find_desc(const char *name)
{
	for (unsigned int i = 0; i < wq_knob_ndescs; i++)
		if (streq(wq_knob_descs[i].name, name))
			return &wq_knob_descs[i];
	return NULL;
}

void wq_knob_clear(struct wq_knob *k)
{
	free(k->value);
	memset(k, 0, sizeof(*k));
}

void wq_knobs_free(struct wq_knob *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		wq_knob_clear(&k[i]);
	free(k);
}

/* workqueue.NAME= on the kernel command line, or NULL. */
static char *cmdline_value(struct wq_ctx *ctx, const char *name)
{
	_cleanup_free_ char *cmd = NULL;
	char key[80];
	const char *p;
	size_t len;

	if (wq_root_read(ctx->root, WQ_P_CMDLINE, &cmd) < 0)
		return NULL;
	len = (size_t)snprintf(key, sizeof(key), "workqueue.%s=", name);
	for (p = cmd; (p = strstr(p, key)); p += len) {
		if (p == cmd || p[-1] == ' ')
			return strndup(p + len, strcspn(p + len, " \n"));
	}
	return NULL;
}

static int fill(struct wq_ctx *ctx, const struct wq_knob_desc *d, const char *name, struct wq_knob *k)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	k->desc = d;
	snprintf(k->name, sizeof(k->name), "%s", name);
	if (d && !d->path) {
		/* A __setup() parameter without a file: exists from the kernel it came with. */
		if (!wq_has_scopes(ctx) && wq_kver_cmp(&ctx->kver, 6, 6, 0) < 0)
			return -ENOENT;
		k->boot_only = true;
		k->value = cmdline_value(ctx, name);
		return 0;
	}
	if (d)
		snprintf(k->path, sizeof(k->path), "%s", d->path);
	else
		snprintf(k->path, sizeof(k->path), WQ_P_PARAMS "/%s", name);
	if (wq_root_stat(ctx->root, k->path, &st) < 0 || S_ISDIR(st.st_mode))
		return -ENOENT;
	k->present = true;
	/* present but unreadable (a FIFO, a NUL byte, too large): value NULL, err says why */
	k->err = wq_root_read(ctx->root, k->path, &k->value);
	if (k->err < 0)
		k->value = NULL;
	else
		k->err = 0;
	if (d) {
		k->boot_only = d->boot_only;
		k->writable = !d->read_only;
	} else {
		k->writable = (st.st_mode & 0222) != 0;
		k->boot_only = !k->writable;
	}
	return 0;
}

int wq_knob_get(struct wq_ctx *ctx, const char *name, struct wq_knob *out)
{
	const struct wq_knob_desc *d = find_desc(name);

	if (!d && (!wq_name_is_valid(name) || strlen(name) >= sizeof(out->name)))
		return -ENOENT;
	return fill(ctx, d, name, out);
}

static int strcmpp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int wq_knobs_list(struct wq_ctx *ctx, struct wq_knob **out, size_t *n)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct wq_knob *v = calloc(wq_knob_ndescs, sizeof(*v));
	char **extra = NULL;
	size_t cnt = 0, nextra = 0;
	struct dirent *de;
	int r = 0;

	if (!v)
		return -ENOMEM;
	for (unsigned int i = 0; i < wq_knob_ndescs; i++)
		if (fill(ctx, &wq_knob_descs[i], wq_knob_descs[i].name, &v[cnt]) == 0)
			cnt++;
	d = wq_root_opendir(ctx->root, WQ_P_PARAMS);
	while (d && (de = readdir(d))) {
		char **ne;

		if (de->d_name[0] == '.' || find_desc(de->d_name))
			continue;
		ne = realloc(extra, sizeof(*extra) * (nextra + 1));
		if (!ne) {
			r = -ENOMEM;
			break;
		}
		extra = ne;
		extra[nextra] = strdup(de->d_name);
		if (!extra[nextra]) {
			r = -ENOMEM;
			break;
		}
		nextra++;
	}
	if (r == 0 && nextra) {
		struct wq_knob *nv;

		qsort(extra, nextra, sizeof(*extra), strcmpp);
		nv = realloc(v, sizeof(*v) * (cnt + nextra));
		if (!nv) {
			r = -ENOMEM;
		} else {
			v = nv;
			for (size_t i = 0; i < nextra; i++)
				if (strlen(extra[i]) < sizeof(v->name) && fill(ctx, NULL, extra[i], &v[cnt]) == 0)
					cnt++;
		}
	}
	for (size_t i = 0; i < nextra; i++)
		free(extra[i]);
	free(extra);
	if (r < 0) {
		wq_knobs_free(v, cnt);
		return r;
	}
	*out = v;
	*n = cnt;
	return 0;
}

char *wq_knob_cmdline(const struct wq_knob *k, const char *value)
{
	char *s = NULL;

	if (asprintf(&s, "workqueue.%s=%s", k->name, value) < 0)
		return NULL;
	return s;
}

enum wq_vtype wq_knob_type(const struct wq_knob *k)
{
	return k->desc ? k->desc->type : WQ_V_STRING;
}

int wq_knob_parse(struct wq_ctx *ctx, const struct wq_knob *k, const char *text, char **out, char *why, size_t whysz)
{
	const struct wq_knob_desc *d = k->desc;
	int r;

	*out = NULL;
	if (k->boot_only) {
		_cleanup_free_ char *v = NULL;
		_cleanup_free_ char *frag = NULL;

		/* Still say what the fragment would be, in the kernel's spelling. */
		if (d && d->type == WQ_V_CPUMASK) {
			_cleanup_cpuset_ struct wq_cpuset *s = wq_cpuset_new();

			if (!s)
				return -ENOMEM;
			r = wq_cpuspec_parse(ctx, text, -1, s, why, whysz);
			if (r < 0)
				return r;
			v = wq_cpuset_format_list(s);
		} else if (d) {
			r = wq_value_parse(ctx, d->type, d->lo, d->hi, -1, false, text, &v, why, whysz);
			if (r < 0)
				return r;
		} else {
			v = strdup(text);
		}
		frag = v ? wq_knob_cmdline(k, v) : NULL;
		snprintf(why, whysz, "boot-only: add '%s' to the kernel command line", frag ? frag : "?");
		return -EPERM;
	}
	if (!k->writable) {
		snprintf(why, whysz, "read-only");
		return -EROFS;
	}
	if (!d)
		return wq_value_parse(ctx, WQ_V_STRING, 0, 0, -1, false, text, out, why, whysz);
	return wq_value_parse(ctx, d->type, d->lo, d->hi, -1, false, text, out, why, whysz);
}
