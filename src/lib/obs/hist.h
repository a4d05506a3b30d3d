/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tracefs hist file as the kernel prints it (doc/kernel.md §8.1): one
 * section per hist trigger on the event, each a list of entries
 * "{ KEY: VALUE, ... } hitcount: N" and its totals. Pure text in, tables
 * out; no tracefs access here.
 */
#ifndef WQ_HIST_H
#define WQ_HIST_H

#include <stddef.h>
#include <stdint.h>

/* Keys per hist trigger the kernel allows (TRACING_MAP_KEYS_MAX). */
#define WQ_HIST_KEYS 3

struct wq_hist_entry {
	const char *key[WQ_HIST_KEYS]; /* each value as printed, its padding cut */
	unsigned long long hitcount;
	unsigned long long val; /* the first value after hitcount ("vals=hitcount,X": X's sum), 0 if none */
};

struct wq_hist_sec {
	const char *trigger; /* the trigger as "# trigger info:" shows it, " [active]" cut */
	const char *name[WQ_HIST_KEYS]; /* the key names, modifiers (".sym", ".log2") cut */
	size_t nkeys;
	struct wq_hist_entry *ent;
	size_t n;
	unsigned long long hits, entries, dropped; /* "Totals:" */
	char *names_; /* the copy the names point into */
};

struct wq_hist {
	char *text;
	struct wq_hist_sec *sec;
	size_t nsec;
};

/*
 * Parse a hist file's text, which h takes over (freed by wq_hist_clear,
 * also on error). 0, or -EBADMSG with the line and why in why, -ENOMEM.
 */
int wq_hist_parse(char *text, struct wq_hist *h, char *why, size_t whysz);
void wq_hist_clear(struct wq_hist *h);
/* The section whose trigger reads "hist:keys=KEYS:...", or NULL. */
const struct wq_hist_sec *wq_hist_section(const struct wq_hist *h, const char *keys);
/* A ".log2" key's value "~ 2^K": K, or -1. Bucket K holds 2^(K-1) < v <= 2^K. */
int wq_hist_log2(const char *v);
/* A decimal u64 key's value (a pointer field prints so). 0 or -EINVAL. */
int wq_hist_u64(const char *v, uint64_t *out);
/*
 * A ".sym" key's value "[ADDR] SYMBOL" (SYMBOL with " [module]" for a
 * module's, or the address when the kernel knows no symbol): the address
 * in *addr and where SYMBOL starts in *sym. 0 or -EINVAL.
 */
int wq_hist_sym(const char *v, uint64_t *addr, const char **sym);

#endif
