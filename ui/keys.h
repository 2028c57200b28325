/* SPDX-License-Identifier: GPL-2.0 */
/* Keys: one table for what they do, the help screen and the hint bar. */
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
	KEY_EXACT,		/* live: exact mode on/off */
};

/* The modes a key works in. */
enum key_modes {
	KEYS_LIVE = 1,
	KEYS_REPLAY = 2,
	KEYS_ALL = KEYS_LIVE | KEYS_REPLAY,
};

#define KEY_CODES_MAX 11

struct key_binding {
	int codes[KEY_CODES_MAX];	/* curses key codes, 0-terminated */
	const char *keys;		/* as the help shows them; NULL: not shown */
	const char *what;		/* the help's text */
	const char *hint[2];		/* in the hint bar, live and replay */
	enum key_modes modes;
	enum key_result (*act)(struct ui_state *st, int ch);
};

extern const struct key_binding key_bindings[];
extern const int nr_key_bindings;

bool key_in_mode(const struct key_binding *b, bool replay);
enum key_result ui_key(struct ui_state *st, int ch);

#endif
