/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording's kernel had, as `mmtop probe` decided it from BTF: a
 * header line of KEY:TOKEN words (kernel_has=), written by the recorder
 * and the bench, read by compare to say beside its tables what differs
 * between the kernels. Each feature's key, title and words are here once.
 */
#ifndef MMTOP_KERNEL_FEATURES_H
#define MMTOP_KERNEL_FEATURES_H

#include <stddef.h>

enum kernel_feature {
	KFEAT_VMA_LOCK,		/* none, rwsem, refcnt, unknown */
	KFEAT_CONTENDED_RELEASE,	/* yes, no */
	KFEAT_FORK_HOOK,	/* fentry, kprobe, none */
	KFEAT_LACKING,		/* the tracepoints lacking, comma-separated; - none */
	KFEAT__COUNT,
};

/* The recording header's key. */
#define KERNEL_FEATURES_KEY "kernel_has"

/* @f's title in words ("per-VMA lock"). */
const char *kernel_feature_title(enum kernel_feature f);
/* @f's @token in words ("rwsem": "an rwsem (vm_lock)"); @token itself where it has none. */
const char *kernel_feature_words(enum kernel_feature f, const char *token);

/* The header value of @tokens (one per feature, in enum order), into @buf. */
void kernel_features_put(const char *const tokens[KFEAT__COUNT], char *buf, size_t len);
/*
 * @f's token in the header value @value, into @tok; "" where @value (a
 * recording older than this) does not say.
 */
void kernel_features_get(const char *value, enum kernel_feature f, char *tok, size_t len);

#endif
