// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <microhttpd.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include "exposition.h"
#include "metrics.h"
#include "serve.h"
#include "serve_room.h"
#include "util.h"

struct serve {
	int fd;
	struct serve_room *room;
	pthread_mutex_t lock;		/* guards m */
	struct metrics m;
	char kernel[65];
};

static const char index_html[] =
	"<html><head><title>mmtop</title></head><body><h1>mmtop</h1>"
	"<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

/*
 * A port beyond 65535 is not one: getaddrinfo() takes it modulo 65536
 * (99999 served on 34463, 65537 bound port 1).
 */
const char *serve_listen_invalid(const char *spec)
{
	const char *port = strrchr(spec, ':');
	size_t digits;

	if (!port || !port[1] || port - spec >= 256)
		return "expected ADDR:PORT";
	digits = strspn(port + 1, "0123456789");
	if (port[1 + digits] || digits > 5 || atoi(port + 1) > 65535)
		return "the port must be 0-65535 (0: a free one)";
	return NULL;
}

/* "ADDR:PORT", "[ADDR]:PORT" or ":PORT" -> a listening socket; -1 after saying why. */
static int listen_on(const char *spec)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	char host[256], *port = strrchr(spec, ':');
	const char *bad = serve_listen_invalid(spec);
	struct addrinfo *ai;
	size_t n = port ? (size_t)(port - spec) : 0;
	int fd, err, one = 1;

	if (bad) {
		fprintf(stderr, "mmtop: --listen '%s': %s\n", spec, bad);
		return -1;
	}
	memcpy(host, spec, n);
	host[n] = '\0';
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
		memmove(host, host + 1, n - 2);
		host[n - 2] = '\0';
	}
	err = getaddrinfo(*host ? host : NULL, port + 1, &hints, &ai);
	if (err) {
		fprintf(stderr, "mmtop: cannot listen on %s: %s\n", spec, gai_strerror(err));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
		fprintf(stderr, "mmtop: cannot listen on %s: %s\n", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* Where we listen, as "http://ADDR:PORT/metrics" (port 0 picks one). */
static void say_where(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[INET6_ADDRSTRLEN + 2] = "?", port[8] = "?";

	if (!getsockname(fd, (struct sockaddr *)&ss, &len))
		getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), port, sizeof(port),
			    NI_NUMERICHOST | NI_NUMERICSERV);
	fprintf(stderr, ss.ss_family == AF_INET6 ? "mmtop: serving http://[%s]:%s/metrics\n" :
		"mmtop: serving http://%s:%s/metrics\n", host, port);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *type, const char *body)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body,
								  MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* Render under the lock into memory; the client reads it at its own pace. */
static enum MHD_Result metrics(struct serve *sv, struct MHD_Connection *c)
{
	enum expo_format fmt = expo_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
									  MHD_HTTP_HEADER_ACCEPT));
	uint64_t start = clock_ns(CLOCK_MONOTONIC);
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", "out of memory\n");
	pthread_mutex_lock(&sv->lock);
	expo_write(f, &sv->m, fmt, sv->kernel, start);
	pthread_mutex_unlock(&sv->lock);
	if (fclose(f)) {
		free(buf);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", "out of memory\n");
	}
	r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, expo_content_type(fmt));
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version,
			      const char *upload, size_t *upload_size, void **req)
{
	static int seen;

	(void)version;
	(void)upload;
	/* The first call only announces the request; a body is ignored. */
	if (!*req) {
		*req = &seen;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     "only GET and HEAD\n");
	if (!strcmp(url, "/metrics"))
		return metrics(cls, c);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_html);
	return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "not found; try /metrics\n");
}

/*
 * Each connection with a small request pool (a scrape's request is a few
 * hundred bytes; the reply is not built in it); idle ones closed after
 * 5 s. How many are held, and which is let go for a new one: serve_room.h.
 */
#define HTTP_CONNECTION_MEMORY (16 * 1024)
#define HTTP_IDLE_TIMEOUT_S 5

/* The HTTP threads must not take the stop signals meant for collection. */
static int start_httpd(struct serve *sv)
{
	const struct MHD_OptionItem options[] = {
		{ MHD_OPTION_CONNECTION_TIMEOUT, HTTP_IDLE_TIMEOUT_S, NULL },
		{ MHD_OPTION_CONNECTION_MEMORY_LIMIT, HTTP_CONNECTION_MEMORY, NULL },
		{ MHD_OPTION_END, 0, NULL },
	};
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	sv->room = serve_room_start(sv->fd, answer, sv, options);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return sv->room ? 0 : -1;
}

struct serve *serve_open(const char *listen, int top, bool by_pid, int cgroup_depth)
{
	struct serve *sv = calloc(1, sizeof(*sv));
	struct utsname u = { 0 };

	if (!sv || metrics_init(&sv->m, top, by_pid, cgroup_depth)) {
		fprintf(stderr, "mmtop: out of memory\n");
		free(sv);
		return NULL;
	}
	pthread_mutex_init(&sv->lock, NULL);
	uname(&u);
	snprintf(sv->kernel, sizeof(sv->kernel), "%s", u.release);
	sv->fd = listen_on(listen);
	if (sv->fd >= 0 && start_httpd(sv)) {
		fprintf(stderr, "mmtop: cannot start the HTTP server on %s\n", listen);
		close(sv->fd);
		sv->fd = -1;
	}
	if (sv->fd < 0) {
		serve_close(sv);
		return NULL;
	}
	say_where(sv->fd);
	return sv;
}

static int add_interval(void *ctx, const struct snapshot *s)
{
	struct serve *sv = ctx;
	int err;

	pthread_mutex_lock(&sv->lock);
	err = metrics_add(&sv->m, s);
	pthread_mutex_unlock(&sv->lock);
	if (err)
		fprintf(stderr, "mmtop: serve: out of memory\n");
	return err;
}

int serve_run(struct serve *sv, struct batch_opts *opts, const struct snapshot_source *src)
{
	opts->sink = add_interval;
	opts->sink_ctx = sv;
	return batch_run(opts, src);
}

void serve_close(struct serve *sv)
{
	if (!sv)
		return;
	serve_room_stop(sv->room);
	if (sv->fd >= 0)
		close(sv->fd);
	metrics_free(&sv->m);
	pthread_mutex_destroy(&sv->lock);
	free(sv);
}
