// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "kernel_features.h"
#include "util.h"

struct feature_word {
	const char *token, *words;
};

static const struct {
	const char *key, *title;
	struct feature_word words[4];
} features[KFEAT__COUNT] = {
	[KFEAT_VMA_LOCK] = { "vma-lock", "per-VMA lock", {
		{ "none", "none (before 6.4, or without CONFIG_PER_VMA_LOCK)" },
		{ "rwsem", "an rwsem (vm_lock)" },
		{ "refcnt", "a reference count (vm_refcnt)" },
		{ "unknown", "unknown (no BTF)" } } },
	[KFEAT_CONTENDED_RELEASE] = { "contended-release", "lock:contended_release", {
		{ "yes", "yes (holders' sites in the default set)" },
		{ "no", "no (holders' sites in exact mode only)" } } },
	[KFEAT_FORK_HOOK] = { "fork-hook", "fork timing from", {
		{ "fentry", "kernel_clone (fentry)" },
		{ "kprobe", "kernel_clone (kprobe)" },
		{ "none", "dup_mmap's lock, exact mode only (no fentry or kprobe)" },
		{ "off", "not asked (the fork family off)" } } },
	[KFEAT_LACKING] = { "lacking", "tracepoints lacking", {
		{ "-", "none" } } },
};

const char *kernel_feature_title(enum kernel_feature f)
{
	return features[f].title;
}

const char *kernel_feature_words(enum kernel_feature f, const char *token)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(features[f].words) && features[f].words[i].token; i++)
		if (!strcmp(features[f].words[i].token, token))
			return features[f].words[i].words;
	return token;
}

void kernel_features_put(const char *const tokens[KFEAT__COUNT], char *buf, size_t len)
{
	size_t n = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < KFEAT__COUNT && n < len; f++)
		n += snprintf(buf + n, len - n, "%s%s:%s", f ? " " : "", features[f].key,
			      tokens[f][0] ? tokens[f] : "-");
}

void kernel_features_get(const char *value, enum kernel_feature f, char *tok, size_t len)
{
	size_t klen = strlen(features[f].key), n;
	const char *p = value;

	tok[0] = '\0';
	while (p && *p) {
		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n > klen && !strncmp(p, features[f].key, klen) && p[klen] == ':') {
			snprintf(tok, len, "%.*s", (int)(n - klen - 1), p + klen + 1);
			return;
		}
		p += n;
	}
}
