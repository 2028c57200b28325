/* SPDX-License-Identifier: GPL-2.0 */
/* Keys: one table for what they do and for the help screen. */
#ifndef MMTOP_UI_KEYS_H
#define MMTOP_UI_KEYS_H

#include "ui_state.h"

enum key_result {
	KEY_NONE,		/* nothing changed */
	KEY_REDRAW,
	KEY_QUIT,
	KEY_INTERVAL,		/* the interval changed */
	KEY_COLOR,		/* colours toggled */
	KEY_STEP_FWD,		/* replay: one interval forward */
	KEY_STEP_BACK,		/* replay: one interval back */
	KEY_JUMP,		/* replay: to st->jump_s */
};

struct key_help {
	const char *keys;
	const char *what;
};

extern const struct key_help key_help[];
extern const int nr_key_help;

enum key_result ui_key(struct ui_state *st, int ch);

#endif
