// SPDX-License-Identifier: GPL-2.0-or-later
#include "owner.h"

#include <stdio.h>
#include <string.h>

/* One row per naming rule: prefix, owner kind, and how the id is spelled. */
static const struct {
	const char *prefix;
	enum wq_owner_kind kind;
} rules[] = {
    {"kcryptd_io-", WQ_OWNER_BLOCK},   {"kcryptd-", WQ_OWNER_BLOCK},	 {"scsi_wq_", WQ_OWNER_SCSI_HOST},
    {"scsi_tmf_", WQ_OWNER_SCSI_HOST}, {"iscsi_q_", WQ_OWNER_SCSI_HOST}, {"iscsi_ctrl_", WQ_OWNER_ISCSI_SESSION},
};

void wq_owner_from_name(const char *name, struct wq_owner *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const char *rest = name + strlen(rules[i].prefix);
		unsigned int a, b, c;
		char tail;

		if (strncmp(name, rules[i].prefix, strlen(rules[i].prefix)))
			continue;
		switch (rules[i].kind) {
		case WQ_OWNER_BLOCK:
			if (sscanf(rest, "%u:%u-%u%c", &a, &b, &c, &tail) != 3)
				return;
			snprintf(o->id, sizeof(o->id), "%u:%u", a, b);
			break;
		case WQ_OWNER_SCSI_HOST:
			if (sscanf(rest, "%u%c", &a, &tail) != 1)
				return;
			snprintf(o->id, sizeof(o->id), "host%u", a);
			break;
		case WQ_OWNER_ISCSI_SESSION:
			if (sscanf(rest, "%u:%u%c", &a, &b, &tail) != 2)
				return;
			snprintf(o->id, sizeof(o->id), "session%u", b);
			break;
		default: return;
		}
		o->kind = rules[i].kind;
		return;
	}
}

const char *wq_owner_format(const struct wq_owner *o, char *buf, size_t size)
{
	static const char *const kinds[] = {
	    [WQ_OWNER_BLOCK] = "block",
	    [WQ_OWNER_SCSI_HOST] = "scsi_host",
	    [WQ_OWNER_ISCSI_SESSION] = "iscsi_session",
	};

	if (o->kind == WQ_OWNER_NONE)
		return NULL;
	snprintf(buf, size, "%s:%s", kinds[o->kind], o->id);
	return buf;
}
