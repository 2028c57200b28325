// SPDX-License-Identifier: GPL-2.0
/*
 * The recording reader on damaged bytes (src/record/reader.c): a damaged
 * frame in the middle is skipped and reported once, the frames after it
 * are found again; junk between frames is skipped; a torn last frame is
 * dropped with one warning; a newer major version is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "reader.h"
#include "recorder.h"
#include "unit.h"

#define FRAMES 3

struct file {
	unsigned char *data;
	size_t size;
	size_t frame_at[FRAMES + 1];	/* each snapshot frame's offset, then the end */
};

/* A recording of FRAMES snapshots, seq 1..FRAMES, read back into memory. */
static int make(struct file *f)
{
	char path[] = "/tmp/mmtop-test-reader-XXXXXX", err[256];
	struct recorder rec;
	struct snapshot s;
	FILE *in;
	int fd = mkstemp(path), i, ok = -1;
	struct stat st;

	if (fd < 0)
		return -1;
	close(fd);
	if (recorder_open(&rec, path, "label=unit\n", err, sizeof(err)) ||
	    snapshot_init(&s, 2, 1))
		goto out;
	for (i = 0; i < FRAMES; i++) {
		s.seq = i + 1;
		s.cpus[1].faults.min_flt = 1000 * (i + 1);
		f->frame_at[i] = rec.good;
		recorder_write(&rec, &s);
	}
	f->frame_at[FRAMES] = rec.good;
	recorder_close(&rec);
	snapshot_free(&s);
	in = fopen(path, "rb");
	if (!in || fstat(fileno(in), &st))
		goto out;
	f->size = st.st_size;
	f->data = malloc(f->size + 4096);
	ok = f->data && fread(f->data, 1, f->size, in) == f->size ? 0 : -1;
	fclose(in);
out:
	unlink(path);
	return ok;
}

/* Read @data: the seqs found, how many, and the warnings printed. */
static int read_all(const unsigned char *data, size_t size, int *seqs, int *warnings)
{
	struct rec_reader r;
	struct snapshot s;
	char err[256], *log = NULL;
	size_t loglen = 0;
	FILE *warn = open_memstream(&log, &loglen);
	int n = 0, ret;

	memset(&s, 0, sizeof(s));
	ret = rec_open_buffer(&r, data, size, warn, err, sizeof(err));
	if (!ret) {
		while (rec_next(&r, &s) == 1 && n < FRAMES + 1)
			seqs[n++] = s.seq;
		rec_close(&r);
	}
	snapshot_free(&s);
	fclose(warn);
	*warnings = 0;
	for (char *p = log; p && (p = strstr(p, "mmtop: recording")); p++)
		(*warnings)++;
	free(log);
	return ret ? ret : n;
}

int main(void)
{
	struct file f = { 0 };
	unsigned char *copy;
	int seqs[FRAMES + 1], n, warnings;
	size_t mid, gap = 3000;

	if (make(&f)) {
		CHECK(0, "a recording to read could be made");
		UNIT_EXIT();
	}
	copy = malloc(f.size + gap);
	n = read_all(f.data, f.size, seqs, &warnings);
	CHECK(n == 3 && seqs[0] == 1 && seqs[2] == 3 && !warnings, "intact: 3 intervals, no warning");

	memcpy(copy, f.data, f.size);
	mid = (f.frame_at[1] + f.frame_at[2]) / 2;
	copy[mid] ^= 0x01;
	n = read_all(copy, f.size, seqs, &warnings);
	CHECK(n == 2 && seqs[0] == 1 && seqs[1] == 3 && warnings == 1,
	      "one bit flipped in frame 2: frames 1 and 3 read, one warning (%d, %d)", n, warnings);

	/* Junk between frames 1 and 2, some of it looking like frame lengths. */
	memcpy(copy, f.data, f.frame_at[1]);
	for (size_t i = 0; i < gap; i++)
		copy[f.frame_at[1] + i] = i % 7 == 0 ? 4 : (unsigned char)(i * 37);
	memcpy(copy + f.frame_at[1] + gap, f.data + f.frame_at[1], f.size - f.frame_at[1]);
	n = read_all(copy, f.size + gap, seqs, &warnings);
	CHECK(n == 3 && seqs[1] == 2 && warnings == 1,
	      "%zu bytes of junk between frames: all 3 found again, one warning (%d, %d)", gap, n,
	      warnings);

	n = read_all(f.data, f.frame_at[2] + (f.frame_at[3] - f.frame_at[2]) / 2, seqs, &warnings);
	CHECK(n == 2 && seqs[1] == 2 && warnings == 1, "torn last frame: dropped, one warning (%d, %d)",
	      n, warnings);

	memcpy(copy, f.data, f.size);
	copy[8] = REC_MAJOR + 1;
	CHECK(read_all(copy, f.size, seqs, &warnings) == -2, "a newer major version is refused");
	free(copy);
	free(f.data);
	UNIT_EXIT();
}
