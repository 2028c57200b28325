/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's CPU priority. mmtop samples at nice -20, as atop does:
 * behind ten unprivileged CPU-bound processes (twenty runnable threads on
 * two CPUs) a nice-0 mmtop spent two thirds of its time waiting to run,
 * took seconds to its first interval and let its ring buffers overflow.
 * Its work per interval is small, so it takes no more CPU than before,
 * only on time. A command it starts runs at the caller's priority.
 */
#ifndef MMTOP_PRIORITY_H
#define MMTOP_PRIORITY_H

/*
 * Raise the calling thread (and the threads it creates later) to nice
 * -20; without the privilege, the priority stays as it was.
 */
void priority_raise(void);
/* Back to the priority mmtop was started with: in a child before exec. */
void priority_restore(void);

#endif
