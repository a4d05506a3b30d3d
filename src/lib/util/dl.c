// SPDX-License-Identifier: GPL-2.0-or-later
/* libnuma, libudev, libnl-route, libtracefs, libtraceevent, libbpf, json-c and libsmartcols loaded on first use. */
#define _GNU_SOURCE
#include "dl.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Sonames of the Debian runtime packages behind the pkg-config names. */
#define SO_NUMA "libnuma.so.1"
#define SO_UDEV "libudev.so.1"
#define SO_NL "libnl-3.so.200"
#define SO_NL_ROUTE "libnl-route-3.so.200"
#define SO_TRACEEVENT "libtraceevent.so.1"
#define SO_TRACEFS "libtracefs.so.1"
#define SO_JSON "libjson-c.so.5"
#define SO_SCOLS "libsmartcols.so.1"
#define SO_BPF "libbpf.so.1"

#define SYM(h, lib, name)                                                                                              \
	do {                                                                                                           \
		*(void **)&(lib).name = dlsym((h), #name);                                                             \
		if (!(lib).name)                                                                                       \
			return false;                                                                                  \
	} while (0)

static bool load_numa(struct wq_libnuma *l)
{
	void *h = dlopen(SO_NUMA, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, numa_available);
	SYM(h, *l, numa_max_node);
	SYM(h, *l, numa_allocate_cpumask);
	SYM(h, *l, numa_free_cpumask);
	SYM(h, *l, numa_bitmask_isbitset);
	SYM(h, *l, numa_node_to_cpus);
	SYM(h, *l, numa_all_nodes_ptr);
	SYM(h, *l, numa_nodes_ptr);
	return true;
}

static bool load_udev(struct wq_libudev *l)
{
	void *h = dlopen(SO_UDEV, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, udev_new);
	SYM(h, *l, udev_unref);
	SYM(h, *l, udev_device_new_from_syspath);
	SYM(h, *l, udev_device_unref);
	SYM(h, *l, udev_device_get_properties_list_entry);
	SYM(h, *l, udev_list_entry_get_next);
	SYM(h, *l, udev_list_entry_get_name);
	SYM(h, *l, udev_list_entry_get_value);
	return true;
}

static bool load_nl(struct wq_libnl *l)
{
	/* libnl-route needs libnl's symbols: load that one globally first. */
	void *h = dlopen(SO_NL, RTLD_NOW | RTLD_GLOBAL), *r;

	if (!h)
		return false;
	r = dlopen(SO_NL_ROUTE, RTLD_NOW | RTLD_LOCAL);
	if (!r)
		return false;
	SYM(h, *l, nl_socket_alloc);
	SYM(h, *l, nl_socket_free);
	SYM(h, *l, nl_connect);
	SYM(h, *l, nl_addr_parse);
	SYM(h, *l, nl_addr_put);
	SYM(h, *l, nl_cache_free);
	SYM(h, *l, nl_cache_get_first);
	SYM(h, *l, nl_cache_get_next);
	SYM(r, *l, rtnl_link_alloc_cache);
	SYM(r, *l, rtnl_link_get);
	SYM(r, *l, rtnl_link_put);
	SYM(r, *l, rtnl_link_get_name);
	SYM(r, *l, rtnl_link_get_type);
	SYM(r, *l, rtnl_link_get_master);
	SYM(r, *l, rtnl_link_get_link);
	SYM(r, *l, rtnl_link_get_ifindex);
	SYM(r, *l, rtnl_route_lookup);
	SYM(r, *l, rtnl_route_put);
	SYM(r, *l, rtnl_route_get_nnexthops);
	SYM(r, *l, rtnl_route_nexthop_n);
	SYM(r, *l, rtnl_route_nh_get_ifindex);
	return true;
}

static bool load_trace(struct wq_libtrace *l)
{
	void *e = dlopen(SO_TRACEEVENT, RTLD_NOW | RTLD_LOCAL), *f = dlopen(SO_TRACEFS, RTLD_NOW | RTLD_LOCAL);

	if (!e || !f)
		return false;
	SYM(f, *l, tracefs_tracing_dir);
	SYM(f, *l, tracefs_instance_create);
	SYM(f, *l, tracefs_instance_destroy);
	SYM(f, *l, tracefs_instance_free);
	SYM(f, *l, tracefs_instance_set_buffer_size);
	SYM(f, *l, tracefs_instance_file_write);
	SYM(f, *l, tracefs_event_enable);
	SYM(f, *l, tracefs_event_disable);
	SYM(f, *l, tracefs_trace_on);
	SYM(f, *l, tracefs_iterate_raw_events);
	SYM(f, *l, tracefs_event_file_read);
	SYM(f, *l, tracefs_event_file_append);
	SYM(f, *l, tracefs_instance_file_read);
	SYM(f, *l, tracefs_instance_file_append);
	SYM(e, *l, tep_alloc);
	SYM(e, *l, tep_parse_header_page);
	SYM(e, *l, tep_parse_event);
	SYM(e, *l, tep_get_header_page_size);
	SYM(e, *l, tep_set_long_size);
	SYM(e, *l, tep_set_cpus);
	SYM(e, *l, tep_free);
	SYM(e, *l, tep_find_event_by_name);
	SYM(e, *l, tep_find_field);
	SYM(e, *l, tep_read_number_field);
	SYM(e, *l, tep_get_field_raw);
	SYM(e, *l, tep_data_pid);
	SYM(e, *l, tep_parse_kallsyms);
	SYM(e, *l, tep_find_function);
	return true;
}

static bool load_json(struct wq_libjson *l)
{
	void *h = dlopen(SO_JSON, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, json_object_new_object);
	SYM(h, *l, json_object_new_array);
	SYM(h, *l, json_object_new_string);
	SYM(h, *l, json_object_new_int);
	SYM(h, *l, json_object_new_int64);
	SYM(h, *l, json_object_new_double_s);
	SYM(h, *l, json_object_new_boolean);
	SYM(h, *l, json_object_object_add);
	SYM(h, *l, json_object_array_add);
	SYM(h, *l, json_object_put);
	SYM(h, *l, json_object_to_json_string_ext);
	SYM(h, *l, json_tokener_new);
	SYM(h, *l, json_tokener_free);
	SYM(h, *l, json_tokener_parse_ex);
	SYM(h, *l, json_tokener_get_error);
	SYM(h, *l, json_tokener_error_desc);
	SYM(h, *l, json_object_object_get_ex);
	SYM(h, *l, json_object_get_type);
	SYM(h, *l, json_object_get_double);
	SYM(h, *l, json_object_get_int64);
	SYM(h, *l, json_object_get_string);
	SYM(h, *l, json_object_array_length);
	SYM(h, *l, json_object_array_get_idx);
	SYM(h, *l, json_object_new_double);
	SYM(h, *l, json_object_get_boolean);
	SYM(h, *l, json_object_get_string_len);
	SYM(h, *l, json_tokener_get_parse_end);
	return true;
}

static bool load_scols(struct wq_libscols *l)
{
	void *h = dlopen(SO_SCOLS, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, scols_new_table);
	SYM(h, *l, scols_unref_table);
	SYM(h, *l, scols_table_set_name);
	SYM(h, *l, scols_table_new_line);
	SYM(h, *l, scols_table_new_column);
	SYM(h, *l, scols_table_enable_raw);
	SYM(h, *l, scols_table_enable_noencoding);
	SYM(h, *l, scols_table_enable_noheadings);
	SYM(h, *l, scols_table_enable_json);
	SYM(h, *l, scols_table_enable_export);
	SYM(h, *l, scols_print_table);
	SYM(h, *l, scols_line_set_data);
	SYM(h, *l, scols_column_set_json_type);
	return true;
}

static bool load_bpf(struct wq_libbpf *l)
{
	void *h = dlopen(SO_BPF, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, btf__parse);
	SYM(h, *l, btf__free);
	SYM(h, *l, btf__find_by_name_kind);
	SYM(h, *l, btf__type_by_id);
	SYM(h, *l, btf__name_by_offset);
	SYM(h, *l, btf__resolve_size);
	SYM(h, *l, btf__resolve_type);
	SYM(h, *l, bpf_object__open_mem);
	SYM(h, *l, bpf_object__load);
	SYM(h, *l, bpf_object__close);
	SYM(h, *l, bpf_object__next_program);
	SYM(h, *l, bpf_program__attach);
	SYM(h, *l, bpf_program__name);
	SYM(h, *l, bpf_program__fd);
	SYM(h, *l, bpf_obj_get_info_by_fd);
	SYM(h, *l, bpf_link__destroy);
	SYM(h, *l, bpf_object__find_map_by_name);
	SYM(h, *l, bpf_map__fd);
	SYM(h, *l, bpf_map_get_next_key);
	SYM(h, *l, bpf_map_lookup_elem);
	SYM(h, *l, libbpf_num_possible_cpus);
	SYM(h, *l, libbpf_set_print);
	SYM(h, *l, libbpf_strerror);
	return true;
}

#define LAZY(type, name, loader)                                                                                       \
	const struct type *name(void)                                                                                  \
	{                                                                                                              \
		static struct type lib;                                                                                \
		static int state; /* 0 untried, 1 loaded, -1 unavailable */                                            \
		if (!state)                                                                                            \
			state = loader(&lib) ? 1 : -1;                                                                 \
		return state > 0 ? &lib : NULL;                                                                        \
	}

LAZY(wq_libnuma, wq_libnuma, load_numa)
LAZY(wq_libudev, wq_libudev, load_udev)
LAZY(wq_libnl, wq_libnl, load_nl)
LAZY(wq_libtrace, wq_libtrace, load_trace)
LAZY(wq_libbpf, wq_libbpf, load_bpf)

/* A library without a fallback: NULL when it cannot be loaded, and why in a message of its own. */
#define MUST(type, name, loader, so)                                                                                   \
	static char name##_why_text[256];                                                                              \
	const struct type *name(void)                                                                                  \
	{                                                                                                              \
		static struct type lib;                                                                                \
		static int state; /* 0 untried, 1 loaded, -1 unavailable */                                            \
		if (!state) {                                                                                          \
			state = loader(&lib) ? 1 : -1;                                                                 \
			if (state < 0) {                                                                               \
				const char *e = dlerror();                                                             \
				snprintf(name##_why_text, sizeof(name##_why_text), "%s: cannot load: %s", so,          \
					 e ? e : "unknown error");                                                     \
			}                                                                                              \
		}                                                                                                      \
		return state > 0 ? &lib : NULL;                                                                        \
	}                                                                                                              \
	const char *name##_why(void)                                                                                   \
	{                                                                                                              \
		return name##_why_text;                                                                                \
	}

MUST(wq_libjson, wq_libjson, load_json, SO_JSON)
MUST(wq_libscols, wq_libscols, load_scols, SO_SCOLS)
