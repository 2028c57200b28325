// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "cgroup_pairs.h"

static int by_wait(const void *a, const void *b)
{
	const struct cgroup_pair *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return strcmp(x->cgroup, y->cgroup) ?: strcmp(x->holder_cgroup, y->holder_cgroup);
}

static struct cgroup_pair *pair_of(struct cgroup_pair *v, int *nr, const struct blame_row *b)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(v[i].cgroup, b->cgroup) &&
		    !strcmp(v[i].holder_cgroup, b->holder_cgroup))
			return &v[i];
	v[*nr] = (struct cgroup_pair){ .cgroup = b->cgroup, .holder_cgroup = b->holder_cgroup };
	return &v[(*nr)++];
}

int cgroup_pairs_of(const struct snapshot *s, struct cgroup_pair **out)
{
	struct cgroup_pair *v, *p;
	int i, nr = 0;

	*out = NULL;
	for (i = 0; i < s->blame.nr && !s->blame.v[i].cgroup[0]; i++)
		;
	if (i == s->blame.nr)
		return 0;
	v = calloc(s->blame.nr, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < s->blame.nr; i++) {
		const struct blame_row *b = &s->blame.v[i];

		p = pair_of(v, &nr, b);
		p->count += b->count;
		p->wait_ns += b->wait_ns;
		max_keep(&p->wait_max_ns, &p->wait_max_bound, b->wait_max_ns, b->wait_max_bound);
		p->rows++;
	}
	qsort(v, nr, sizeof(*v), by_wait);
	*out = v;
	return nr;
}
