/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which device a workqueue belongs to, from its name (SPEC §5, KERNEL.md §6). */
#ifndef WQ_OWNER_H
#define WQ_OWNER_H

#include <stddef.h>

enum wq_owner_kind {
	WQ_OWNER_NONE,
	WQ_OWNER_BLOCK, /* kcryptd-MAJ:MIN-ID, kcryptd_io-MAJ:MIN-ID */
	WQ_OWNER_SCSI_HOST, /* scsi_wq_N, scsi_tmf_N, iscsi_q_N */
	WQ_OWNER_ISCSI_SESSION, /* iscsi_ctrl_N:SID */
};

struct wq_owner {
	enum wq_owner_kind kind;
	char id[32]; /* "253:0", "host3", "session5" */
};

/* Map a workqueue name to its owner; kind WQ_OWNER_NONE when it has none. */
void wq_owner_from_name(const char *name, struct wq_owner *o);
/* "block:253:0", "scsi_host:host3", "iscsi_session:session5", or NULL for none. */
const char *wq_owner_format(const struct wq_owner *o, char *buf, size_t size);

#endif
