// SPDX-License-Identifier: GPL-2.0-or-later
/* The workqueue tracepoints through libtracefs: an instance of our own, drained into monitor. */
#define _GNU_SOURCE
#include "trace.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/ctx.h"
#include "../util/dl.h"
#include "../util/macro.h"
#include "../core/root.h"

#define INSTANCE_PREFIX "wqctl-monitor-"

static const char *const event_names[] = {
    [WQ_EV_QUEUE] = "workqueue_queue_work",
    [WQ_EV_ACTIVATE] = "workqueue_activate_work",
    [WQ_EV_START] = "workqueue_execute_start",
    [WQ_EV_END] = "workqueue_execute_end",
};

struct wq_trace {
	const struct wq_libtrace *L;
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	char name[64];
	/* Event ids and the fields read from each (offsets come from the format files). */
	int id[4];
	struct tep_format_field *work[4];
	struct tep_format_field *fn[4]; /* "function", where the event has it */
	struct tep_event *queue;
	unsigned long long lost;
	int err;
	/* events of this drain plus the ones held back from the last (see wq_trace_read) */
	struct wq_trace_ev *ev;
	size_t nev, cap, max;
	unsigned long long seq;
	bool full;
	bool symbols;
};

/*
 * Hold back the events of the last REORDER_NS of a drain. A drain reads the
 * CPUs' buffers one after another, so an event written on a CPU already read
 * arrives with the next drain, after later events of other CPUs (a worker
 * that slept may end an item on another CPU than it started it on). Holding
 * back more than one drain takes keeps the events in time order.
 */
#define REORDER_NS 50000000ULL

/* The inode of this process's PID namespace (asked once), 0 when /proc cannot say. */
static unsigned long long self_ns(void)
{
	static unsigned long long ns;
	static bool asked;

	if (!asked) {
		asked = true;
		ns = wq_self_pidns();
	}
	return ns;
}

const char *wq_trace_tag(void)
{
	static char tag[48];

	if (!tag[0])
		snprintf(tag, sizeof(tag), "%ld_%llu", (long)getpid(), self_ns());
	return tag;
}

/* A decimal number as "%llu" writes it (no sign, blank or leading 0; 0 itself when zero_ok), up to max; end at stop. */
static bool number(const char **s, char stop, unsigned long long max, bool zero_ok, unsigned long long *out)
{
	const char *p = *s;
	unsigned long long v = 0;

	if (*p < '0' || *p > '9' || (*p == '0' && (!zero_ok || p[1] != stop)))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (max - (unsigned long long)(*p - '0')) / 10)
			return false;
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	if (*p != stop)
		return false;
	*s = p;
	*out = v;
	return true;
}

long wq_trace_instance_pid(const char *name, const char *prefix, unsigned long long *ns)
{
	size_t len = strlen(prefix);
	unsigned long long pid, n;

	if (strncmp(name, prefix, len))
		return -1;
	name += len;
	if (!number(&name, '_', INT32_MAX, false, &pid) || pid == 0)
		return -1;
	name++;
	if (!number(&name, '\0', ULLONG_MAX, true, &n))
		return -1;
	*ns = n;
	return (long)pid;
}

bool wq_trace_owner_gone(long pid, unsigned long long ns)
{
	/* a pid means something only in its own namespace: another's run cannot be asked about */
	if (pid <= 0 || ns == 0 || ns != self_ns())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

void wq_trace_remove_stale(struct wq_ctx *ctx, const struct wq_libtrace *L, const char *dir, const char *prefix,
			   void (*before)(const struct wq_libtrace *L, struct tracefs_instance *inst, const char *tag),
			   const char *what)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;

	if (asprintf(&path, "%s/instances", dir) < 0 || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		struct tracefs_instance *inst;
		unsigned long long ns = 0;
		long pid = wq_trace_instance_pid(de->d_name, prefix, &ns);

		if (pid <= 0 || !wq_trace_owner_gone(pid, ns))
			continue; /* running, someone else's, or not provably gone */
		inst = L->tracefs_instance_create(de->d_name); /* opens the existing one */
		if (!inst)
			continue;
		if (before)
			before(L, inst, de->d_name + strlen(prefix));
		if (L->tracefs_instance_destroy(inst) == 0)
			wq_log(ctx, WQ_LOG_INFO, "%s/%s: removed %s of a monitor that is gone", path, de->d_name, what);
		L->tracefs_instance_free(inst);
	}
}

const char *wq_trace_mount(const struct wq_libtrace *L)
{
	/*
	 * Asked once: libtracefs 1.6.4 drops its first answer without freeing
	 * it when asked again where the directory cannot be searched (not
	 * root; ASan shows the strdup).
	 */
	static const char *dir;

	if (!dir)
		dir = L->tracefs_tracing_dir();
	return dir;
}

const char *wq_trace_dir(struct wq_ctx *ctx, const struct wq_libtrace **L, int *err, char *why, size_t whysz)
{
	const char *dir;

	if (!wq_root_is_live(ctx->root)) {
		snprintf(why, whysz, "tracepoints are read from the live system only, not a sysroot");
		*err = -EINVAL;
		return NULL;
	}
	*L = wq_libtrace();
	if (!*L) {
		snprintf(why, whysz, "libtracefs or libtraceevent cannot be loaded");
		*err = -ENOENT;
		return NULL;
	}
	dir = wq_trace_mount(*L);
	if (!dir || access(dir, F_OK) < 0) {
		snprintf(why, whysz, "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		*err = -ENOENT;
		return NULL;
	}
	if (access(dir, W_OK) < 0) {
		*err = -errno;
		snprintf(why, whysz, "%s: %s (monitor needs root)", dir, wq_strerror(errno));
		return NULL;
	}
	return dir;
}

/*
 * The ring buffer's page header and the formats of the four events, nothing
 * more. libtracefs' tracefs_local_events_system() would also parse
 * /proc/kallsyms, saved_cmdlines and printk_formats for symbol and comm
 * names that monitor never prints: 0.2 s of start-up on a desktop and over
 * 2 s in an emulated 16-CPU guest, during which the first work is missed.
 */
static int load_formats(struct wq_ctx *ctx, struct wq_trace *t, const char *dir, char *why, size_t whysz)
{
	_cleanup_free_ char *path = NULL, *buf = NULL;
	int r;

	t->tep = t->L->tep_alloc();
	if (!t->tep)
		return -ENOMEM;
	for (int i = -1; i < 4; i++) {
		free(path);
		free(buf);
		path = buf = NULL;
		if (asprintf(&path, i < 0 ? "%s/events/header_page" : "%s/events/workqueue/%s/format", dir,
			     i < 0 ? "" : event_names[i]) < 0)
			return -ENOMEM;
		r = wq_root_read(ctx->root, path, &buf);
		if (r < 0) {
			snprintf(why, whysz, "%s: %s", path, wq_strerror(-r));
			return r;
		}
		if (i < 0)
			r = t->L->tep_parse_header_page(t->tep, buf, strlen(buf), (int)sizeof(long));
		else
			r = t->L->tep_parse_event(t->tep, buf, strlen(buf), "workqueue") ? -1 : 0;
		if (r < 0) {
			snprintf(why, whysz, "%s: cannot parse the format", path);
			return -EINVAL;
		}
	}
	t->L->tep_set_long_size(t->tep, t->L->tep_get_header_page_size(t->tep));
	t->L->tep_set_cpus(t->tep, (int)sysconf(_SC_NPROCESSORS_CONF));
	return 0;
}

const char *wq_trace_instance(const struct wq_trace *t)
{
	return t->name;
}

void wq_trace_tidy(struct wq_ctx *ctx)
{
	const struct wq_libtrace *L;
	char why[200];
	int r;
	const char *dir = wq_trace_dir(ctx, &L, &r, why, sizeof(why));

	if (dir)
		wq_trace_remove_stale(ctx, L, dir, INSTANCE_PREFIX, NULL, "the instance");
}

int wq_trace_open(struct wq_ctx *ctx, unsigned int buffer_kb, struct wq_trace **out, char *why, size_t whysz)
{
	const struct wq_libtrace *L;
	struct wq_trace *t;
	const char *dir;
	int r;

	*out = NULL;
	dir = wq_trace_dir(ctx, &L, &r, why, whysz);
	if (!dir)
		return r;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->L = L;
	r = load_formats(ctx, t, dir, why, whysz);
	if (r < 0) {
		wq_trace_close(t);
		return r;
	}
	for (int i = 0; i < 4; i++) {
		struct tep_event *e = t->L->tep_find_event_by_name(t->tep, "workqueue", event_names[i]);

		if (!e || !(t->work[i] = t->L->tep_find_field(e, "work"))) {
			snprintf(why, whysz, "%s/events/workqueue/%s: missing or without a 'work' field", dir,
				 event_names[i]);
			wq_trace_close(t);
			return -ENOENT;
		}
		t->id[i] = e->id;
		t->fn[i] = t->L->tep_find_field(e, "function");
		if (i == WQ_EV_QUEUE)
			t->queue = e;
	}
	if (!t->L->tep_find_field(t->queue, "workqueue")) {
		snprintf(why, whysz, "workqueue_queue_work has no 'workqueue' field (kernel older than 5.12)");
		wq_trace_close(t);
		return -ENOTSUP;
	}
	wq_trace_remove_stale(ctx, t->L, dir, INSTANCE_PREFIX, NULL, "the instance");
	snprintf(t->name, sizeof(t->name), INSTANCE_PREFIX "%s", wq_trace_tag());
	t->inst = t->L->tracefs_instance_create(t->name);
	if (!t->inst) {
		int e = errno ? errno : EIO;

		snprintf(why, whysz, "%s/instances/%s: cannot create: %s", dir, t->name, wq_strerror(e));
		wq_trace_close(t);
		return -e;
	}
	/* room for bursts between reads; a size the kernel refuses (memory) is said, not ignored */
	if (t->L->tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1) < 0) {
		int e = errno ? errno : ENOMEM;

		snprintf(why, whysz, "instances/%s: cannot size the buffers to %u KiB per CPU: %s", t->name, buffer_kb,
			 wq_strerror(e));
		wq_trace_close(t);
		return -e;
	}
	/*
	 * A wait starts on the queueing CPU and ends on the worker's: stamp
	 * both with the clock that is ordered across CPUs, the one the
	 * kernel's own hists use for timestamps (lib/klat), not the default
	 * per-CPU one.
	 */
	if (t->L->tracefs_instance_file_write(t->inst, "trace_clock", "global") < 0) {
		int e = errno ? errno : EIO;

		snprintf(why, whysz, "instances/%s/trace_clock: cannot set 'global': %s", t->name, wq_strerror(e));
		wq_trace_close(t);
		return -e;
	}
	for (int i = 0; i < 4; i++) {
		if (t->L->tracefs_event_enable(t->inst, "workqueue", event_names[i]) < 0) {
			snprintf(why, whysz, "instances/%s: cannot enable workqueue/%s", t->name, event_names[i]);
			wq_trace_close(t);
			return -EIO;
		}
	}
	t->L->tracefs_trace_on(t->inst);
	*out = t;
	return 0;
}

static int on_event(struct tep_event *e, struct tep_record *rec, int cpu, void *data)
{
	struct wq_trace *t = data;
	unsigned long long work = 0;
	struct wq_trace_ev *h;
	int ev = -1;

	for (int i = 0; i < 4; i++)
		if (e->id == t->id[i])
			ev = i;
	if (ev < 0)
		return 0;
	if (rec->missed_events > 0)
		t->lost += (unsigned long long)rec->missed_events;
	else if (rec->missed_events < 0)
		t->lost++; /* dropped, count unknown */
	if (t->L->tep_read_number_field(t->work[ev], rec->data, &work) < 0 || work == 0)
		return 0;
	if (t->max && t->nev >= t->max) {
		t->full = true;
		return 0;
	}
	if (t->nev == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct wq_trace_ev *n = realloc(t->ev, cap * sizeof(*n));

		if (!n) {
			t->err = -ENOMEM;
			return 1; /* stop */
		}
		t->ev = n;
		t->cap = cap;
	}
	h = &t->ev[t->nev++];
	h->ts = rec->ts;
	h->work = work;
	h->seq = t->seq++;
	h->ev = ev;
	h->cpu = cpu;
	h->fn = 0;
	if (t->fn[ev]) {
		unsigned long long fn = 0;

		if (t->L->tep_read_number_field(t->fn[ev], rec->data, &fn) == 0)
			h->fn = fn;
	}
	h->pid = t->L->tep_data_pid(t->tep, rec);
	h->wq[0] = '\0';
	if (ev == WQ_EV_QUEUE) {
		int len = 0;
		const char *s = t->L->tep_get_field_raw(NULL, e, "workqueue", rec, &len, 0);

		if (s && len > 0)
			snprintf(h->wq, sizeof(h->wq), "%.*s", (int)strnlen(s, (size_t)len), s);
	}
	return 0;
}

static int cmp_held(const void *a, const void *b)
{
	const struct wq_trace_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Feed the held events up to cutoff (all with flush) in time order; keep the rest. */
static int feed(struct wq_trace *t, struct wq_mon *m, uint64_t cutoff, bool flush)
{
	size_t i, keep;

	if (t->nev > 1)
		qsort(t->ev, t->nev, sizeof(*t->ev), cmp_held);
	for (i = 0; i < t->nev && (flush || t->ev[i].ts <= cutoff); i++) {
		const struct wq_trace_ev *h = &t->ev[i];

		if (wq_mon_event_cpu(m, (enum wq_mon_ev)h->ev, h->ts, h->work, h->wq[0] ? h->wq : "?", h->cpu) < 0)
			return -ENOMEM;
	}
	keep = t->nev - i;
	if (keep && i)
		memmove(t->ev, t->ev + i, keep * sizeof(*t->ev));
	t->nev = keep;
	return 0;
}

int wq_trace_read(struct wq_trace *t, struct wq_mon *m, unsigned long long *lost)
{
	size_t before = t->nev;
	uint64_t newest = 0;

	t->lost = 0;
	t->err = 0;
	if (t->L->tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, on_event, t) < 0 && !t->err)
		t->err = -EIO;
	*lost = t->lost;
	if (t->err)
		return t->err;
	for (size_t i = before; i < t->nev; i++)
		if (t->ev[i].ts > newest)
			newest = t->ev[i].ts;
	/* An empty drain: every buffer was empty, nothing older can still come. */
	if (t->nev == before)
		return feed(t, m, 0, true);
	return feed(t, m, newest > REORDER_NS ? newest - REORDER_NS : 0, false);
}

int wq_trace_flush(struct wq_trace *t, struct wq_mon *m)
{
	unsigned long long lost;
	int r = wq_trace_read(t, m, &lost);

	return r < 0 ? r : feed(t, m, 0, true);
}

int wq_trace_collect(struct wq_trace *t, size_t max, unsigned long long *lost, bool *full)
{
	t->lost = 0;
	t->err = 0;
	t->max = max;
	if (t->L->tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, on_event, t) < 0 && !t->err)
		t->err = -EIO;
	t->max = 0;
	*lost = t->lost;
	*full = t->full;
	return t->err;
}

void wq_trace_collected(struct wq_trace *t, const struct wq_trace_ev **ev, size_t *n)
{
	if (t->nev > 1)
		qsort(t->ev, t->nev, sizeof(*t->ev), cmp_held);
	*ev = t->ev;
	*n = t->nev;
}

int wq_trace_load_symbols(struct wq_ctx *ctx, struct wq_trace *t, char *why, size_t whysz)
{
	_cleanup_free_ char *buf = NULL;
	int r = wq_root_read(ctx->root, WQ_P_KALLSYMS, &buf);
	const char *p;

	if (r < 0) {
		snprintf(why, whysz, "/" WQ_P_KALLSYMS ": %s", wq_strerror(-r));
		return r;
	}
	/*
	 * kptr_restrict: every address reads 0 for a reader without CAP_SYSLOG
	 * (per-CPU symbols are 0 anyway, so one non-zero address is enough)
	 */
	for (p = buf; *p; p++) {
		size_t l = strspn(p, "0123456789abcdef");

		if (l && strspn(p, "0") < l)
			break;
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	if (!p || !*p) {
		snprintf(why, whysz, "/" WQ_P_KALLSYMS " shows no addresses (kernel.kptr_restrict)");
		return -EPERM;
	}
	if (t->L->tep_parse_kallsyms(t->tep, buf) < 0) {
		snprintf(why, whysz, "/" WQ_P_KALLSYMS ": libtraceevent cannot parse it");
		return -EINVAL;
	}
	t->symbols = true;
	return 0;
}

const char *wq_trace_symbol(struct wq_trace *t, uint64_t addr)
{
	return t->symbols && addr ? t->L->tep_find_function(t->tep, addr) : NULL;
}

void wq_trace_close(struct wq_trace *t)
{
	if (!t)
		return;
	if (t->inst) {
		t->L->tracefs_event_disable(t->inst, "workqueue", NULL);
		t->L->tracefs_instance_destroy(t->inst);
		t->L->tracefs_instance_free(t->inst);
	}
	if (t->tep)
		t->L->tep_free(t->tep);
	free(t->ev);
	free(t);
}
