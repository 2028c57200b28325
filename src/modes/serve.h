/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mmtop serve`: the collector's intervals added up (metrics.h) and served
 * over HTTP at /metrics for Prometheus, with no terminal. The HTTP side is
 * libmicrohttpd's own thread, fed connections by one that keeps room for
 * scrapes (serve_room.h); it renders the totals under a mutex that the
 * collection holds only to add an interval, so slow or many scrapers never
 * hold up collection.
 */
#ifndef MMTOP_SERVE_H
#define MMTOP_SERVE_H

#include "batch.h"
#include "source.h"

#define SERVE_LISTEN_DEFAULT "127.0.0.1:9794"

struct serve;

/*
 * Whether @listen has the form --listen takes: an address, ':', and a
 * port of 0-65535 (0 picks a free one). NULL, or what is wrong with it.
 */
const char *serve_listen_invalid(const char *listen);

/*
 * Bind and listen on @listen ("ADDR:PORT", "[V6ADDR]:PORT", ":PORT"), before
 * any BPF is loaded; NULL after printing why (the address named).
 */
struct serve *serve_open(const char *listen, int top, bool by_pid, int cgroup_depth);
/* Collect and serve until a stop signal, or -n/--duration; exit status. */
int serve_run(struct serve *sv, struct batch_opts *opts, const struct snapshot_source *src);
void serve_close(struct serve *sv);

#endif
