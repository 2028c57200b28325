/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmtop serve's connections, accepted here and handed to libmicrohttpd,
 * so that a scrape always finds room. libmicrohttpd alone refuses a
 * connection once it holds its limit: 300 local clients that each send a
 * header byte every 2 s (a slowloris) kept 11 scrapes of 20 from being
 * answered within 10 s. Here, at the limit, the connection that has
 * waited longest without a request in progress (one that never finished
 * its headers, or a kept-alive one between requests) is shut for the new
 * one. A per-client limit would not help (the clients and the scraper may
 * share one address), nor would a shorter idle timeout (each byte renews
 * it).
 */
#ifndef MMTOP_SERVE_ROOM_H
#define MMTOP_SERVE_ROOM_H

#include <microhttpd.h>

/* Connections held at most; at this many, a new one shuts the idlest. */
#define SERVE_ROOM_CONNECTIONS 256

struct serve_room;

/*
 * Start libmicrohttpd (@answer, @cls as MHD_start_daemon takes them, plus
 * @options, MHD_OPTION_END-ended) and a thread accepting on @listen_fd.
 * The caller blocks the signals both threads must not take. NULL on error.
 */
struct serve_room *serve_room_start(int listen_fd, MHD_AccessHandlerCallback answer,
				    void *cls, const struct MHD_OptionItem *options);
/* Stop accepting, then stop libmicrohttpd. */
void serve_room_stop(struct serve_room *room);

#endif
