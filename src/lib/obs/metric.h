/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `experiment` measures in a workload's output: wall time, fio's JSON
 * (bandwidth, IOPS, completion latency percentiles, summed or worst over
 * jobs), a number matched by a regular expression, or a number at a path in
 * the workload's own JSON.
 */
#ifndef WQCTL_METRIC_H
#define WQCTL_METRIC_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

enum metric_kind {
	METRIC_AUTO, /* fio's bandwidth when the output is fio JSON, else wall time */
	METRIC_WALL,
	METRIC_FIO,
	METRIC_REGEX,
	METRIC_JSON,
};

enum fio_what { FIO_BW, FIO_IOPS, FIO_CLAT };

struct metric {
	enum metric_kind kind;
	char spec[256]; /* canonical: wall, fio:write.bw, re:..., json:... */
	/* fio */
	enum fio_what what;
	int dir; /* -1 read and write, 0 read, 1 write */
	double pct; /* clat percentile */
	/* regex / json */
	regex_t re;
	bool re_ok;
	char path[256]; /* json: the path, as long as spec allows */
	bool higher_is_better;
	bool better_given; /* --better overrides the kind's default */
	const char *unit;
};

/* Parse --metric (NULL or "auto": decided by the first run's output). 0, or -EINVAL with why. */
int metric_parse(struct metric *m, const char *spec, char *why, size_t whysz);
/* --better higher|lower. 0 or -EINVAL. */
int metric_set_better(struct metric *m, const char *word);
void metric_free(struct metric *m);
/* "fio bandwidth, MiB/s, higher is better" */
void metric_describe(const struct metric *m, char *buf, size_t size);
/*
 * The metric of one run from its standard output (NUL-terminated at len)
 * and wall time; an auto metric is settled by the first output it sees.
 * *fio gets the per-job fio figures when the output is fio JSON (the caller
 * owns it), else NULL. 0, or -errno with why.
 */
int metric_extract(struct metric *m, const char *out, size_t len, double wall_s, double *value, json_object **fio,
		   char *why, size_t whysz);

#endif
