// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysfs-tree reader: the input, split at 0xff bytes, overwrites the
 * files of a sysroot (CPU lists, node lists, masks, attributes, release);
 * then topology, a workqueue, the explain model and the pods are read as
 * show and explain read them. Oracle: the sanitizers, an explain that
 * succeeds gives a figure or says why not, and the mask read as a set
 * only (show, check) is the one read with its text (get, apply).
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "core/explain.h"
#include "fuzz.h"
#include "core/wq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *root;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* each file and what it holds when the input has no chunk for it (every input sets all) */
	static const char *const files[][2] = {
	    {"sys/devices/system/cpu/possible", "0-15\n"},
	    {"sys/devices/system/cpu/online", "0-15\n"},
	    {"sys/devices/system/cpu/nohz_full", "          (null)\n"},
	    {"sys/devices/system/cpu/isolated", "\n"},
	    {"sys/devices/system/node/node0/cpulist", "0-3\n"},
	    {"sys/devices/system/node/node1/cpulist", "4-7\n"},
	    {"sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", "0-3\n"},
	    {"sys/devices/virtual/workqueue/cpumask", "ffff\n"},
	    {"sys/devices/virtual/workqueue/writeback/max_active", "256\n"},
	    {"sys/devices/virtual/workqueue/writeback/cpumask", "ffff\n"},
	    {"sys/devices/virtual/workqueue/writeback/affinity_scope", "default (cache)\n"},
	    {"sys/devices/virtual/workqueue/writeback/nice", "0\n"},
	    {"sys/module/workqueue/parameters/default_affinity_scope", "cache\n"},
	    {"proc/sys/kernel/osrelease", "6.12.95+deb12-amd64\n"},
	};
	const uint8_t *p = data, *end = data + size;
	struct wq_ctx *ctx;
	struct wq_info wi;
	struct wq_explain ex;

	if (!root)
		root = fuzz_tree();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const uint8_t *sep;
		size_t len;

		if (p > end) {
			fuzz_puts(root, files[i][0], files[i][1]);
			continue;
		}
		sep = memchr(p, 0xff, (size_t)(end - p));
		len = sep ? (size_t)(sep - p) : (size_t)(end - p);
		fuzz_put(root, files[i][0], (const char *)p, len);
		p += len + 1;
	}
	ctx = fuzz_ctx(root);
	if (!ctx)
		return 0;
	if (wq_ctx_topo_pods(ctx, -1) && wq_info_read(ctx, "writeback", &wi) == 0) {
		/* the caller clears ex whatever wq_explain returns */
		if (wq_explain(ctx, &wi, NULL, &ex) == 0 && ex.max_inflight < 0 && !ex.why && ex.era != WQ_ERA_UNKNOWN)
			abort();
		wq_explain_clear(&ex);
		/* as show reads it (a set, no text), twice: anew, then from the memo */
		wq_ctx_mask_texts(ctx, false);
		for (int i = 0; i < 2; i++) {
			struct wq_info ws;
			const unsigned int m = 1U << WQ_A_CPUMASK;

			if (wq_info_read(ctx, "writeback", &ws) == 0 &&
			    ((ws.has ^ wi.has) & m || (ws.bad ^ wi.bad) & m ||
			     ((wi.has & ~wi.bad & m) && !wq_cpuset_equal(ws.cpumask, wi.cpumask))))
				abort();
			wq_info_clear(&ws);
		}
		wq_info_clear(&wi);
	}
	wq_ctx_free(ctx);
	return 0;
}
