// SPDX-License-Identifier: GPL-2.0
/* Forks: not collected yet, and the view says so rather than show zeros. */
#include <curses.h>

#include "draw.h"
#include "views.h"

static void forks_draw(struct ui_state *st, int y, int h)
{
	(void)st;
	(void)h;
	draw_text(y, 0, COLS, C_DIM,
		  "Forks: n/a (fork probes are not in this version of mmtop).");
	draw_text(y + 1, 0, COLS, C_DIM,
		  "The mmap_lock view shows fork's dup_mmap write holds (SITE fork) and the Locks view the waits behind them.");
}

const struct view_ops view_forks = {
	.name = "Forks",
	.draw = forks_draw,
};
