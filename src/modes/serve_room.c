// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/socket.h>

#include "serve_room.h"
#include "util.h"

/*
 * A connection held: accepted (@c NULL until libmicrohttpd announces it),
 * answering a request (@busy), or idle since @since. A shut one stays
 * until libmicrohttpd closes it, not counted.
 */
struct conn {
	struct MHD_Connection *c;
	int fd;
	uint64_t since;
	bool busy, shut;
};

/*
 * libmicrohttpd's own limit: the held ones, and the shut ones it has not
 * closed yet (each new one may shut one).
 */
#define ROOM_SLOTS (2 * SERVE_ROOM_CONNECTIONS)

struct serve_room {
	struct MHD_Daemon *httpd;
	MHD_AccessHandlerCallback answer;
	void *cls;
	int listen_fd, wake[2];
	pthread_t acceptor;
	pthread_mutex_t lock;		/* guards the rest */
	struct conn conns[ROOM_SLOTS];
	unsigned int nr, held;		/* slots used; of them, not shut */
};

static struct conn *find(struct serve_room *room, struct MHD_Connection *c, int fd)
{
	unsigned int i;

	for (i = 0; i < room->nr; i++)
		if (c ? room->conns[i].c == c : !room->conns[i].c && room->conns[i].fd == fd)
			return &room->conns[i];
	return NULL;
}

static void drop(struct serve_room *room, struct conn *k)
{
	room->held -= !k->shut;
	*k = room->conns[--room->nr];
}

/* At the limit: shut the connection idle the longest, if one is. */
static void make_room(struct serve_room *room)
{
	struct conn *idlest = NULL;
	unsigned int i;

	if (room->held < SERVE_ROOM_CONNECTIONS)
		return;
	for (i = 0; i < room->nr; i++) {
		struct conn *k = &room->conns[i];

		if (k->c && !k->busy && !k->shut && (!idlest || k->since < idlest->since))
			idlest = k;
	}
	if (!idlest)
		return;
	/* libmicrohttpd sees the end of the stream and closes it itself. */
	shutdown(idlest->fd, SHUT_RDWR);
	idlest->shut = true;
	room->held--;
}

/* Take one connection; none if every one held is answering a request. */
static void accept_one(struct serve_room *room)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	int fd = accept4(room->listen_fd, (struct sockaddr *)&addr, &len, SOCK_CLOEXEC);
	bool full;

	if (fd < 0)
		return;
	pthread_mutex_lock(&room->lock);
	make_room(room);
	full = room->nr == ROOM_SLOTS;
	if (!full)
		room->conns[room->nr++] = (struct conn){ .fd = fd,
							 .since = clock_ns(CLOCK_MONOTONIC) };
	room->held += !full;
	pthread_mutex_unlock(&room->lock);
	if (full) {
		close(fd);
		return;
	}
	/* It closes the socket itself if it cannot take it. */
	if (MHD_add_connection(room->httpd, fd, (struct sockaddr *)&addr, len) != MHD_YES) {
		pthread_mutex_lock(&room->lock);
		drop(room, find(room, NULL, fd));
		pthread_mutex_unlock(&room->lock);
	}
}

static void *acceptor(void *arg)
{
	struct serve_room *room = arg;
	struct pollfd p[2] = { { .fd = room->listen_fd, .events = POLLIN },
			       { .fd = room->wake[0], .events = POLLIN } };

	while (poll(p, 2, -1) >= 0 || errno == EINTR) {
		if (p[1].revents)
			break;
		if (p[0].revents)
			accept_one(room);
	}
	return NULL;
}

static void notify_connection(void *cls, struct MHD_Connection *c, void **socket_ctx,
			      enum MHD_ConnectionNotificationCode code)
{
	struct serve_room *room = cls;
	const union MHD_ConnectionInfo *info;
	struct conn *k;

	(void)socket_ctx;
	pthread_mutex_lock(&room->lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		k = info ? find(room, NULL, info->connect_fd) : NULL;
		if (k)
			k->c = c;
	} else {
		k = find(room, c, -1);
		if (k)
			drop(room, k);
	}
	pthread_mutex_unlock(&room->lock);
}

static void request_done(void *cls, struct MHD_Connection *c, void **req,
			 enum MHD_RequestTerminationCode code)
{
	struct serve_room *room = cls;
	struct conn *k;

	(void)req;
	(void)code;
	pthread_mutex_lock(&room->lock);
	k = find(room, c, -1);
	if (k) {
		k->busy = false;
		k->since = clock_ns(CLOCK_MONOTONIC);
	}
	pthread_mutex_unlock(&room->lock);
}

/* A request's first call: its connection is not idle until it is done. */
static enum MHD_Result room_answer(void *cls, struct MHD_Connection *c, const char *url,
				   const char *method, const char *version,
				   const char *upload, size_t *upload_size, void **req)
{
	struct serve_room *room = cls;
	struct conn *k;

	if (!*req) {
		pthread_mutex_lock(&room->lock);
		k = find(room, c, -1);
		if (k)
			k->busy = true;
		pthread_mutex_unlock(&room->lock);
	}
	return room->answer(room->cls, c, url, method, version, upload, upload_size, req);
}

struct serve_room *serve_room_start(int listen_fd, MHD_AccessHandlerCallback answer,
				    void *cls, const struct MHD_OptionItem *options)
{
	struct serve_room *room = calloc(1, sizeof(*room));

	if (!room)
		return NULL;
	room->listen_fd = listen_fd;
	room->answer = answer;
	room->cls = cls;
	room->wake[0] = room->wake[1] = -1;
	pthread_mutex_init(&room->lock, NULL);
	room->httpd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_NO_LISTEN_SOCKET |
				       MHD_USE_ITC, 0, NULL, NULL, room_answer, room,
				       MHD_OPTION_CONNECTION_LIMIT, (unsigned int)ROOM_SLOTS,
				       MHD_OPTION_NOTIFY_CONNECTION, notify_connection, room,
				       MHD_OPTION_NOTIFY_COMPLETED, request_done, room,
				       MHD_OPTION_ARRAY, options, MHD_OPTION_END);
	if (!room->httpd || pipe2(room->wake, O_CLOEXEC) ||
	    pthread_create(&room->acceptor, NULL, acceptor, room)) {
		if (room->wake[0] >= 0) {
			close(room->wake[0]);
			close(room->wake[1]);
			room->wake[0] = -1;
		}
		serve_room_stop(room);
		return NULL;
	}
	return room;
}

void serve_room_stop(struct serve_room *room)
{
	if (!room)
		return;
	if (room->wake[0] >= 0) {
		/* One byte ends the acceptor's poll (an empty pipe takes it). */
		(void)!write(room->wake[1], "", 1);
		pthread_join(room->acceptor, NULL);
		close(room->wake[0]);
		close(room->wake[1]);
	}
	if (room->httpd)
		MHD_stop_daemon(room->httpd);
	pthread_mutex_destroy(&room->lock);
	free(room);
}
