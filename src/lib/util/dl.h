/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnuma, libudev, libnl-route, libtracefs, libbpf, json-c and libsmartcols are
 * loaded on first use (dlopen), the one loader of the tree, so the
 * udev hook path (apply --udev for a workqueue without owner rules) never
 * pays for their loading, relocation and constructors.
 */
#ifndef WQ_DL_H
#define WQ_DL_H

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include <libsmartcols.h>
#include <libudev.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>
#include <numa.h>
#include <tracefs.h>

#define WQ_FN(f) __typeof__(&f) f

struct wq_libnuma {
	WQ_FN(numa_available);
	WQ_FN(numa_max_node);
	WQ_FN(numa_allocate_cpumask);
	WQ_FN(numa_free_cpumask);
	WQ_FN(numa_bitmask_isbitset);
	WQ_FN(numa_node_to_cpus);
	struct bitmask **numa_all_nodes_ptr;
	struct bitmask **numa_nodes_ptr;
};

struct wq_libudev {
	WQ_FN(udev_new);
	WQ_FN(udev_unref);
	WQ_FN(udev_device_new_from_syspath);
	WQ_FN(udev_device_unref);
	WQ_FN(udev_device_get_properties_list_entry);
	WQ_FN(udev_list_entry_get_next);
	WQ_FN(udev_list_entry_get_name);
	WQ_FN(udev_list_entry_get_value);
};

struct wq_libnl {
	WQ_FN(nl_socket_alloc);
	WQ_FN(nl_socket_free);
	WQ_FN(nl_connect);
	WQ_FN(nl_addr_parse);
	WQ_FN(nl_addr_put);
	WQ_FN(nl_cache_free);
	WQ_FN(nl_cache_get_first);
	WQ_FN(nl_cache_get_next);
	WQ_FN(rtnl_link_alloc_cache);
	WQ_FN(rtnl_link_get);
	WQ_FN(rtnl_link_put);
	WQ_FN(rtnl_link_get_name);
	WQ_FN(rtnl_link_get_type);
	WQ_FN(rtnl_link_get_master);
	WQ_FN(rtnl_link_get_link);
	WQ_FN(rtnl_link_get_ifindex);
	WQ_FN(rtnl_route_lookup);
	WQ_FN(rtnl_route_put);
	WQ_FN(rtnl_route_get_nnexthops);
	WQ_FN(rtnl_route_nexthop_n);
	WQ_FN(rtnl_route_nh_get_ifindex);
};

/* libtracefs and the libtraceevent calls the monitor makes. */
struct wq_libtrace {
	WQ_FN(tracefs_tracing_dir);
	WQ_FN(tracefs_instance_create);
	WQ_FN(tracefs_instance_destroy);
	WQ_FN(tracefs_instance_free);
	WQ_FN(tracefs_instance_set_buffer_size);
	WQ_FN(tracefs_instance_file_write);
	WQ_FN(tracefs_event_enable);
	WQ_FN(tracefs_event_disable);
	WQ_FN(tracefs_trace_on);
	WQ_FN(tracefs_iterate_raw_events);
	WQ_FN(tracefs_event_file_read);
	WQ_FN(tracefs_event_file_append);
	/* synthetic_events (lib/klat) */
	WQ_FN(tracefs_instance_file_read);
	WQ_FN(tracefs_instance_file_append);
	WQ_FN(tep_alloc);
	WQ_FN(tep_parse_header_page);
	WQ_FN(tep_parse_event);
	WQ_FN(tep_get_header_page_size);
	WQ_FN(tep_set_long_size);
	WQ_FN(tep_set_cpus);
	WQ_FN(tep_free);
	WQ_FN(tep_find_event_by_name);
	WQ_FN(tep_find_field);
	WQ_FN(tep_read_number_field);
	WQ_FN(tep_get_field_raw);
	/* the isolation audit: worker pids and work function names */
	WQ_FN(tep_data_pid);
	WQ_FN(tep_parse_kallsyms);
	WQ_FN(tep_find_function);
};

/* json-c: reading fio's and saved experiments' JSON, writing -J. */
struct wq_libjson {
	WQ_FN(json_object_new_object);
	WQ_FN(json_object_new_array);
	WQ_FN(json_object_new_string);
	WQ_FN(json_object_new_int);
	WQ_FN(json_object_new_int64);
	WQ_FN(json_object_new_double_s);
	WQ_FN(json_object_new_boolean);
	WQ_FN(json_object_object_add);
	WQ_FN(json_object_array_add);
	WQ_FN(json_object_put);
	WQ_FN(json_object_to_json_string_ext);
	/* reading (experiment: fio output, saved baselines) */
	WQ_FN(json_tokener_new);
	WQ_FN(json_tokener_free);
	WQ_FN(json_tokener_parse_ex);
	WQ_FN(json_tokener_get_error);
	WQ_FN(json_tokener_error_desc);
	WQ_FN(json_object_object_get_ex);
	WQ_FN(json_object_get_type);
	WQ_FN(json_object_get_double);
	WQ_FN(json_object_get_int64);
	WQ_FN(json_object_get_string);
	WQ_FN(json_object_array_length);
	WQ_FN(json_object_array_get_idx);
	WQ_FN(json_object_new_double);
	WQ_FN(json_object_get_boolean);
	WQ_FN(json_object_get_string_len);
	WQ_FN(json_tokener_get_parse_end);
};

/* libsmartcols: every table and -J document of the command line. */
struct wq_libscols {
	WQ_FN(scols_new_table);
	WQ_FN(scols_unref_table);
	WQ_FN(scols_table_set_name);
	WQ_FN(scols_table_new_line);
	WQ_FN(scols_table_new_column);
	WQ_FN(scols_table_enable_raw);
	WQ_FN(scols_table_enable_noencoding);
	WQ_FN(scols_table_enable_noheadings);
	WQ_FN(scols_table_enable_json);
	WQ_FN(scols_table_enable_export);
	WQ_FN(scols_print_table);
	WQ_FN(scols_line_set_data);
	WQ_FN(scols_column_set_json_type);
};

/* libbpf's BTF reader: the kernel's own type layouts (the counters backend, obs/kcount.c). */
struct wq_libbpf {
	WQ_FN(btf__parse);
	WQ_FN(btf__free);
	WQ_FN(btf__find_by_name_kind);
	WQ_FN(btf__type_by_id);
	WQ_FN(btf__name_by_offset);
	WQ_FN(btf__resolve_size);
	WQ_FN(btf__resolve_type);
	/* obs/kbpf.c: load our programs, attach them, read their maps */
	WQ_FN(bpf_object__open_mem);
	WQ_FN(bpf_object__load);
	WQ_FN(bpf_object__close);
	WQ_FN(bpf_object__next_program);
	WQ_FN(bpf_program__attach);
	WQ_FN(bpf_program__name);
	WQ_FN(bpf_program__fd);
	WQ_FN(bpf_obj_get_info_by_fd);
	WQ_FN(bpf_link__destroy);
	WQ_FN(bpf_object__find_map_by_name);
	WQ_FN(bpf_map__fd);
	WQ_FN(bpf_map_get_next_key);
	WQ_FN(bpf_map_lookup_elem);
	WQ_FN(libbpf_num_possible_cpus);
	WQ_FN(libbpf_set_print);
	WQ_FN(libbpf_strerror);
};

/* The loaded library, or NULL when it cannot be loaded (the caller falls back). */
const struct wq_libnuma *wq_libnuma(void);
const struct wq_libudev *wq_libudev(void);
const struct wq_libnl *wq_libnl(void);
const struct wq_libtrace *wq_libtrace(void);
const struct wq_libbpf *wq_libbpf(void);
/*
 * json-c has no fallback: it is a dependency of the package, and a command
 * that reads or writes JSON cannot go on without it. NULL when it cannot be
 * loaded, wq_libjson_why() then saying why; the json_* calls of jsonc.h
 * assume it is loaded, so a caller asks first (the command line does, for
 * every command that reads or writes JSON, before it runs).
 */
const struct wq_libjson *wq_libjson(void);
const char *wq_libjson_why(void);
/* The same for libsmartcols: NULL, wq_libscols_why() saying why; the command line stops there. */
const struct wq_libscols *wq_libscols(void);
const char *wq_libscols_why(void);

#endif
