// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counters backend (src/lib/obs/kcount.c) on a fixture root: BTF
 * written by libbpf's own encoder with the kernel's struct, field and enum
 * names, a kallsyms line, and an ELF core (as /proc/kcore is one) whose
 * memory holds two workqueues and their pool_workqueues at the offsets the
 * BTF gives. The counts each row must show are the ones placed here, summed
 * by hand; then the list is broken in the ways a live list can look broken
 * (a pointer out of the image, a cycle, a name without its NUL) and each is
 * a torn read, never a crash. The real layouts are read from the kernel's
 * own BTF in the live and VM tiers.
 */
#include <bpf/btf.h>
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/ctx.h"
#include "lib/obs/kcount.h"
#include "lib/obs/sampler.h"
#include "monrow.h"
#include "tap.h"

/* struct offsets this fixture's BTF declares (a 6.12-like pool_workqueue: nr_in_flight[16], nr_active, stats[8]) */
#define WQ_PWQS 0
#define WQ_LIST 16
#define WQ_NAME 200
#define WQ_FLAGS 232
#define WQ_SIZE 256
#define PWQ_FLIGHT 24
#define PWQ_ACTIVE 88
#define PWQ_NODE 120
#define PWQ_STATS 152
#define PWQ_SIZE 256

#define HEAD_VA 0xffffffffa0000000ULL /* &workqueues, in the kernel image's segment */
#define MEM_VA 0xffff888000000000ULL /* the direct map: the structs */
#define MEM_SIZE 8192

static char top[] = "/tmp/test-kcount.XXXXXX";
static int asked; /* how often session()'s filter was asked */
static char tree[300];
static unsigned char head_seg[64], mem[MEM_SIZE];

static void put(const char *rel, const void *data, size_t len)
{
	char path[600], cmd[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0 || !(f = fopen(path, "w")) || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		exit(2);
}

/* The kernel-like BTF: with_stats false leaves pool_workqueue.stats out (a kernel before 6.3). */
/* name_at: where workqueue_struct.name is (WQ_NAME; far off to make one read of the struct too long) */
static void write_btf(bool with_stats, size_t name_at)
{
	struct btf *b = btf__new_empty();
	int i32, u32, u64, chr, lh, lhp, name_arr, flight_arr, stats_arr, wq, pwq, en;
	const void *raw;
	__u32 size;

	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	u64 = btf__add_int(b, "long long unsigned int", 8, 0);
	chr = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	lh = btf__add_struct(b, "list_head", 16);
	lhp = btf__add_ptr(b, lh);
	btf__add_field(b, "next", lhp, 0, 0);
	btf__add_field(b, "prev", lhp, 64, 0);
	name_arr = btf__add_array(b, i32, chr, 32);
	flight_arr = btf__add_array(b, i32, i32, 16);
	stats_arr = btf__add_array(b, i32, u64, 8);
	wq = btf__add_struct(b, "workqueue_struct", name_at + 56 > WQ_SIZE ? (__u32)name_at + 56 : WQ_SIZE);
	btf__add_field(b, "pwqs", lh, WQ_PWQS * 8, 0);
	btf__add_field(b, "list", lh, WQ_LIST * 8, 0);
	btf__add_field(b, "name", name_arr, (__u32)name_at * 8, 0);
	btf__add_field(b, "flags", u32, WQ_FLAGS * 8, 0);
	pwq = btf__add_struct(b, "pool_workqueue", PWQ_SIZE);
	btf__add_field(b, "nr_in_flight", flight_arr, PWQ_FLIGHT * 8, 0);
	btf__add_field(b, "nr_active", i32, PWQ_ACTIVE * 8, 0);
	btf__add_field(b, "pwqs_node", lh, PWQ_NODE * 8, 0);
	if (with_stats)
		btf__add_field(b, "stats", stats_arr, PWQ_STATS * 8, 0);
	en = btf__add_enum(b, "pool_workqueue_stats", 4);
	btf__add_enum_value(b, "PWQ_STAT_STARTED", 0);
	btf__add_enum_value(b, "PWQ_STAT_COMPLETED", 1);
	btf__add_enum_value(b, "PWQ_STAT_CPU_TIME", 2);
	btf__add_enum_value(b, "PWQ_STAT_CPU_INTENSIVE", 3);
	btf__add_enum_value(b, "PWQ_STAT_CM_WAKEUP", 4);
	btf__add_enum_value(b, "PWQ_STAT_REPATRIATED", 5);
	btf__add_enum_value(b, "PWQ_STAT_MAYDAY", 6);
	btf__add_enum_value(b, "PWQ_STAT_RESCUED", 7);
	btf__add_enum_value(b, "PWQ_NR_STATS", 8);
	if (wq < 0 || pwq < 0 || en < 0 || !(raw = btf__raw_data(b, &size)))
		exit(2);
	put("sys/kernel/btf/vmlinux", raw, size);
	btf__free(b);
}

static void set64(uint64_t va, uint64_t v)
{
	if (va >= HEAD_VA && va < HEAD_VA + sizeof(head_seg))
		memcpy(head_seg + (va - HEAD_VA), &v, 8);
	else
		memcpy(mem + (va - MEM_VA), &v, 8);
}

static void set32(uint64_t va, uint32_t v)
{
	memcpy(mem + (va - MEM_VA), &v, 4);
}

/* A pwq at va: stats[0..7] = base + i, nr_active, nr_in_flight[color] = flight. */
static void make_pwq(uint64_t va, uint64_t base, int32_t active, int color, int32_t flight)
{
	for (int i = 0; i < 8; i++)
		set64(va + PWQ_STATS + 8 * i, base + (uint64_t)i);
	set32(va + PWQ_ACTIVE, (uint32_t)active);
	set32(va + PWQ_FLIGHT + 4 * color, (uint32_t)flight);
}

/* Two workqueues: writeback (unbound, two pwqs), events (per-cpu, one), on the workqueues list. */
static const uint64_t WB = MEM_VA + 0x100, EV = MEM_VA + 0x300, P1 = MEM_VA + 0x800, P2 = MEM_VA + 0xa00,
		      P3 = MEM_VA + 0xc00;

static void make_memory(void)
{
	memset(mem, 0, sizeof(mem));
	memset(head_seg, 0, sizeof(head_seg));
	/* workqueues -> writeback.list -> events.list -> workqueues */
	set64(HEAD_VA, WB + WQ_LIST);
	set64(WB + WQ_LIST, EV + WQ_LIST);
	set64(EV + WQ_LIST, HEAD_VA);
	memcpy(mem + (WB - MEM_VA) + WQ_NAME, "writeback", 10);
	memcpy(mem + (EV - MEM_VA) + WQ_NAME, "events", 7);
	set32(WB + WQ_FLAGS, 1U << 1 | 1U << 3);
	set32(EV + WQ_FLAGS, 0);
	/* writeback.pwqs -> P1 -> P2 -> back */
	set64(WB + WQ_PWQS, P1 + PWQ_NODE);
	set64(P1 + PWQ_NODE, P2 + PWQ_NODE);
	set64(P2 + PWQ_NODE, WB + WQ_PWQS);
	set64(EV + WQ_PWQS, P3 + PWQ_NODE);
	set64(P3 + PWQ_NODE, EV + WQ_PWQS);
	make_pwq(P1, 100, 3, 0, 5);
	make_pwq(P2, 1000, 1, 15, 2);
	make_pwq(P3, 7, 0, 4, 0);
}

/* An ELF core as /proc/kcore is: a header, PT_LOAD program headers, the memory. */
static void write_kcore(void)
{
	size_t off = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr), len = off + sizeof(head_seg) + sizeof(mem);
	unsigned char *f = calloc(1, len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
	Elf64_Phdr *ph = (Elf64_Phdr *)(f + sizeof(*eh));

	if (!f)
		exit(2);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0] = (Elf64_Phdr){.p_type = PT_LOAD, .p_offset = off, .p_vaddr = HEAD_VA, .p_filesz = sizeof(head_seg)};
	ph[1] = (Elf64_Phdr){
	    .p_type = PT_LOAD, .p_offset = off + sizeof(head_seg), .p_vaddr = MEM_VA, .p_filesz = sizeof(mem)};
	memcpy(f + off, head_seg, sizeof(head_seg));
	memcpy(f + off + sizeof(head_seg), mem, sizeof(mem));
	put("proc/kcore", f, len);
	free(f);
}

static void write_kallsyms(const char *text)
{
	put("proc/kallsyms", text, strlen(text));
}

static const char kallsyms[] = "ffffffff81000000 T _text\n"
			       "ffffffffa0000100 d workqueues\t[some_module]\n"
			       "ffffffffa0000000 d workqueues\n"
			       "ffffffffa0000040 d wq_pool_mutex\n";

/* The filter session() sets on its reader (NULL: none). */
static bool (*session_want)(const char *name, void *arg);

static bool only_events(const char *name, void *arg)
{
	(*(int *)arg)++;
	return !strcmp(name, "events");
}

/* Open and read with a kernel release; r[0] open's result, r[1] read's (99: not run). */
static void session(const char *kernel, struct wq_kcount_row **rows, size_t *n, int r[2], char *why, size_t whysz)
{
	struct wq_ctx *ctx;
	struct wq_kcount *k = NULL;

	asked = 0;
	*rows = NULL;
	*n = 0;
	why[0] = '\0';
	if (wq_ctx_new(tree, kernel, &ctx) < 0)
		exit(2);
	r[0] = wq_kcount_open(ctx, &k, why, whysz);
	if (r[0] == 0 && session_want)
		wq_kcount_filter(k, session_want, &asked);
	r[1] = r[0] == 0 ? wq_kcount_read(k, rows, n, why, whysz) : 99;
	wq_kcount_free(k);
	wq_ctx_free(ctx);
}

int main(void)
{
	struct wq_kcount_row *rows;
	char why[300];
	size_t n;
	int r[2];

	if (!mkdtemp(top))
		return 2;
	snprintf(tree, sizeof(tree), "%s/t", top);
	write_btf(true, WQ_NAME);
	write_kallsyms(kallsyms);
	make_memory();
	write_kcore();

	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == 0 && r[1] == 0 && n == 2, "two workqueues read (open %d, read %d: %s)", r[0], r[1], why);
	if (n == 2) {
		/* sorted by name: events, writeback */
		is_str(rows[0].name, "events", "first row: events");
		is_str(rows[1].name, "writeback", "second row: writeback");
		ok(rows[1].npwqs == 2 && rows[0].npwqs == 1, "pwqs: writeback 2, events 1");
		/* writeback: P1 stats 100+i, P2 1000+i: started 100+1000, completed 101+1001, rescued 107+1007 */
		ok(rows[1].stat[WQ_KS_STARTED] == 1100 && rows[1].stat[WQ_KS_COMPLETED] == 1102,
		   "writeback: started 1100, completed 1102 (%llu, %llu)",
		   (unsigned long long)rows[1].stat[WQ_KS_STARTED], (unsigned long long)rows[1].stat[WQ_KS_COMPLETED]);
		ok(rows[1].stat[WQ_KS_CPU_TIME] == 1104 && rows[1].stat[WQ_KS_RESCUED] == 1114,
		   "writeback: CPU time 1104 us, rescued 1114");
		ok(rows[1].nr_active == 4 && rows[1].nr_in_flight == 7,
		   "writeback: nr_active 3+1, in flight 5 (color 0) + 2 (color 15)");
		ok(rows[1].flags == (1U << 1 | 1U << 3), "writeback: WQ_UNBOUND | WQ_MEM_RECLAIM");
		ok(rows[0].stat[WQ_KS_STARTED] == 7 && rows[0].stat[WQ_KS_MAYDAY] == 13 && rows[0].nr_in_flight == 0,
		   "events: started 7, mayday 13, nothing in flight");
	}
	free(rows);

	/* two workqueues of one name (6.17+: events, events_unbound): one row, as the tracepoints count them */
	memcpy(mem + (EV - MEM_VA) + WQ_NAME, "writeback", 10);
	write_kcore();
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[1] == 0 && n == 1 && rows[0].nwqs == 2 && rows[0].npwqs == 3,
	   "two named writeback: one row of 2 workqueues, 3 pwqs (%zu rows)", n);
	/* by hand: started 100 + 1000 + 7, mayday 106 + 1006 + 13, in flight 7 + 0 */
	ok(n == 1 && rows[0].stat[WQ_KS_STARTED] == 1107 && rows[0].stat[WQ_KS_MAYDAY] == 1125 &&
	       rows[0].nr_in_flight == 7,
	   "their counters summed: started 1107, mayday 1125, in flight 7");
	free(rows);
	memcpy(mem + (EV - MEM_VA) + WQ_NAME, "events\0\0\0", 10);
	write_kcore();

	/* --- monitor --backend counters: an interval's rows are the growth between two reads --- */
	{
		struct wq_sampler *sm = NULL;
		struct wq_sample smp;
		struct wq_ctx *ctx;
		const struct wq_mon_row *wb = NULL;
		int rr;

		memset(mem + (P1 - MEM_VA) + PWQ_STATS, 0, 8 * 8);
		memset(mem + (P2 - MEM_VA) + PWQ_STATS, 0, 8 * 8);
		memset(mem + (P1 - MEM_VA) + PWQ_FLIGHT, 0, 16 * 4);
		memset(mem + (P2 - MEM_VA) + PWQ_FLIGHT, 0, 16 * 4);
		/* P1: 10 started, 8 completed, 5 in flight */
		set64(P1 + PWQ_STATS + 0, 10);
		set64(P1 + PWQ_STATS + 8, 8);
		set32(P1 + PWQ_FLIGHT, 5);
		write_kcore();
		if (wq_ctx_new(tree, "6.12.0", &ctx) < 0)
			return 2;
		/* monitor's auto for count columns */
		rr = wq_sampler_open(ctx, NULL, wq_sampler_auto(ctx, false, false), 0, 0.05, NULL, 0, &sm, why,
				     sizeof(why));
		ok(rr == 0 && wq_sampler_backend_used(sm) == WQ_SAMPLER_COUNTERS,
		   "auto for counts alone reads the counters where they can be read (%s)", rr ? why : "");
		/* then 4 more started, 5 more completed, 2 in flight, 2.5 ms of CPU, one mayday */
		set64(P1 + PWQ_STATS + 0, 14);
		set64(P1 + PWQ_STATS + 8, 13);
		set64(P1 + PWQ_STATS + 16, 2500);
		set64(P1 + PWQ_STATS + 48, 1);
		set32(P1 + PWQ_FLIGHT, 2);
		write_kcore();
		rr = sm ? wq_sampler_next(sm, false, &smp) : -1;
		for (size_t i = 0; rr == 1 && i < smp.n; i++)
			if (!strcmp(smp.rows[i].name, "writeback"))
				wb = &smp.rows[i];
		ok(rr == 1 && smp.counters && smp.n == 1 && wb, "one interval: writeback alone did something (%d rows)",
		   rr == 1 ? (int)smp.n : -1);
		/* by hand: started 14-10, done 13-8; in flight went 5 -> 2 while 5 left it: 2 were queued */
		ok(wb && wb->started == 4 && wb->done == 5 && wb->queued == 2,
		   "writeback: STARTED 4, DONE 5, QUEUED 2 (%lu, %lu, %lu)", wb ? wb->started : 0, wb ? wb->done : 0,
		   wb ? wb->queued : 0);
		/* executing 14-13 = 1 of the 2 in flight, so 1 pending */
		ok(wb && wb->inflight == 1 && wb->pending == 1, "writeback: INFLIGHT 1, PENDING 1");
		ok(wb && wb->cpu_us == 2500 && wb->mayday == 1 && wb->rescued == 0 && wb->wait_p50 < 0,
		   "writeback: CPU 2500 us, 1 mayday, no wait time");
		ok(sm && wq_sampler_counter(sm, WQ_KS_REPATRIATED), "the fixture's kernel keeps REPATRIATED");
		rr = sm ? wq_sampler_summary(sm, &smp) : -1;
		ok(rr == 1 && smp.n == 1 && smp.rows[0].started == 4,
		   "the summary: the same growth from the first read");
		wq_sampler_free(sm);
		wq_ctx_free(ctx);
	}

	/* --- the list as a walk may find it while it changes --- */
	set64(EV + WQ_LIST, MEM_VA + MEM_SIZE + 0x1000); /* into memory the core does not hold */
	write_kcore();
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[1] == -EAGAIN && strstr(why, "torn read") && !rows, "a pointer out of every segment: a torn read (%s)",
	   why);
	free(rows);
	make_memory();
	set64(P2 + PWQ_NODE, P1 + PWQ_NODE); /* P1 <-> P2: a cycle that never reaches the head */
	write_kcore();
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[1] == -EAGAIN, "a cycle in a workqueue's pwqs: bounded, a torn read");
	free(rows);
	/* a reader that wants events alone does not read writeback's pwqs: the cycle is never walked */
	session_want = only_events;
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	session_want = NULL;
	ok(r[1] == 0 && n == 1 && !strcmp(rows[0].name, "events") && rows[0].stat[WQ_KS_STARTED] == 7,
	   "filtered to events: one row, events' started 7, writeback's cyclic pwqs not read (%d: %s)", r[1], why);
	ok(asked == 2, "the filter was asked once for each of the 2 workqueues (%d)", asked);
	free(rows);
	make_memory();
	memset(mem + (WB - MEM_VA) + WQ_NAME, 'x', 32); /* no NUL in name[32] */
	write_kcore();
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[1] == -EAGAIN, "a name without its NUL: a torn read");
	free(rows);
	make_memory();
	memcpy(mem + (WB - MEM_VA) + WQ_NAME, "wr\033[2Jte", 9); /* an escape sequence */
	write_kcore();
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[1] == -EAGAIN, "a name with a control character: a torn read");
	free(rows);
	make_memory();
	set64(HEAD_VA, WB + WQ_LIST + 4); /* misaligned */
	write_kcore();
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[1] == -EAGAIN, "a misaligned pointer: a torn read");
	free(rows);

	/* --- why it cannot read, one reason at a time --- */
	make_memory();
	write_kcore();
	session("6.1.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -ENOTSUP && strstr(why, "from 6.3 on (this is 6.1.0)"), "6.1: %s", why);
	put("sys/kernel/security/lockdown", "none integrity [confidentiality]\n", 33);
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -EPERM && strstr(why, "lockdown=confidentiality"), "lockdown: %s", why);
	put("sys/kernel/security/lockdown", "[none] integrity confidentiality\n", 33);
	write_kallsyms("ffffffff81000000 T _text\nffffffffa0000100 d workqueues\t[some_module]\n");
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -ENOENT && strstr(why, "'workqueues' is not in /proc/kallsyms"), "no symbol: %s", why);
	/* Debian's 7.3.4 lists it with the type letter t (and wq_pool_mutex with b): found all the same */
	write_kallsyms("ffffffff81000000 T _text\nffffffffa0000000 t workqueues\n");
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == 0 && r[1] == 0 && n == 2, "'t workqueues' as 7.3 lists it: found, both rows read (%s)", why);
	free(rows);
	write_kallsyms("0000000000000000 d workqueues\n");
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -EPERM && strstr(why, "kptr_restrict"), "hidden addresses: %s", why);
	write_kallsyms(kallsyms);
	write_btf(false, WQ_NAME);
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -ENOENT && strstr(why, "keeps no per-workqueue counters"), "no stats[] in BTF: %s", why);
	/* each struct is read at once, from its first field read to its last (pwqs at 0 to the end of name[32] at 9000: 9032 bytes): 8 KiB at most */
	write_btf(true, 9000);
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -ENOENT && strstr(why, "fields of workqueue_struct read here 9032 bytes apart (at most 8192)"),
	   "a workqueue_struct whose name is 9000 bytes past its first field: %s", why);
	write_btf(true, WQ_NAME);
	{
		char path[600];

		snprintf(path, sizeof(path), "%s/proc/kcore", tree);
		unlink(path);
	}
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -ENOENT && strstr(why, "CONFIG_PROC_KCORE"), "no kcore: %s", why);
	{
		char junk[128];

		memset(junk, 'x', sizeof(junk)); /* longer than an ELF header, and not one */
		put("proc/kcore", junk, sizeof(junk));
	}
	session("6.12.0", &rows, &n, r, why, sizeof(why));
	ok(r[0] == -EINVAL && strstr(why, "not a 64-bit ELF core"), "not ELF: %s", why);

	/*
	 * Two reads as monitor's rows, worked by hand. wb: started 10 -> 25,
	 * completed 8 -> 20, in flight 2 -> 7: started 15, done 12, queued
	 * 12 + (7 - 2) = 17; executing now 25 - 20 = 5, so INFLIGHT 5 and
	 * PENDING 7 - 5 = 2; CPU 1000 -> 4000 us. nw (no base): started 3,
	 * done 3, nothing in flight: queued 3. idle: no change, nothing in
	 * flight: no row. gone: a pwq released, completed 9 -> 4: 0, not a
	 * wrapped number; with nothing else, no row.
	 */
	{
		struct wq_kcount_row b[3] = {{.name = "gone"}, {.name = "idle"}, {.name = "wb"}},
				     c[4] = {{.name = "gone"}, {.name = "idle"}, {.name = "nw"}, {.name = "wb"}};
		struct wq_mon_row *mr = NULL;
		const struct wq_mon_row *wb, *nw;
		size_t nr = 0;

		b[0].stat[WQ_KS_COMPLETED] = 9;
		b[0].stat[WQ_KS_STARTED] = 9;
		c[0].stat[WQ_KS_COMPLETED] = 4;
		c[0].stat[WQ_KS_STARTED] = 4;
		b[1].stat[WQ_KS_STARTED] = c[1].stat[WQ_KS_STARTED] = 6;
		b[1].stat[WQ_KS_COMPLETED] = c[1].stat[WQ_KS_COMPLETED] = 6;
		c[2].stat[WQ_KS_STARTED] = c[2].stat[WQ_KS_COMPLETED] = 3;
		b[2].stat[WQ_KS_STARTED] = 10;
		b[2].stat[WQ_KS_COMPLETED] = 8;
		b[2].nr_in_flight = 2;
		b[2].stat[WQ_KS_CPU_TIME] = 1000;
		c[3].stat[WQ_KS_STARTED] = 25;
		c[3].stat[WQ_KS_COMPLETED] = 20;
		c[3].nr_in_flight = 7;
		c[3].stat[WQ_KS_CPU_TIME] = 4000;
		ok(wq_kcount_rows(b, 3, c, 4, 2.0, &mr, &nr) == 0 && nr == 2,
		   "rows: nw and wb did something (%zu rows)", nr);
		wb = row(mr, nr, "wb");
		nw = row(mr, nr, "nw");
		ok(COUNTS(wb, 17, 15, 12, 2, 5) && wb->cpu_us == 3000 && wb->queued_ps == 8.5 && wb->wait_p50 == -1,
		   "rows: wb queued 17, started 15, done 12, pending 2, in flight 5, CPU 3000 us, 8.5 queued/s");
		ok(COUNTS(nw, 3, 3, 3, 0, 0), "rows: nw, new since the base, queued, started and done 3");
		ok(!row(mr, nr, "gone") && !row(mr, nr, "idle"), "rows: a fall is no growth; idle has no row");
		free(mr);
	}

	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		if (system(cmd) != 0)
			return 2;
	}
	return tap_done();
}
