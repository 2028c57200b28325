/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stop requests: SIGINT, SIGTERM and SIGHUP end mmtop cleanly (exit 0, BPF
 * detached, terminal restored, recording intact) at any stage, from the
 * first instruction of main on: the handlers are in place before any BPF
 * is loaded, and each stage of start-up looks at the flag.
 */
#ifndef MMTOP_STOP_H
#define MMTOP_STOP_H

#include <signal.h>
#include <stdbool.h>

/*
 * Catch the stop signals. A SIGHUP inherited as ignored (nohup, a
 * background job) stays ignored. No SA_RESTART is needed for the waits:
 * poll() returns on a signal whatever the flag.
 */
void stop_signals_catch(void);
/* The stop signal that came, or 0. */
int stop_requested(void);

#endif
