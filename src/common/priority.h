/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's CPU priority. Loading the BPF objects (the verifier, the
 * kernel's BTF) takes a few hundred milliseconds of CPU, and each interval
 * its map reads and output; behind ten unprivileged CPU-bound processes
 * (twenty runnable threads on two CPUs) a nice-0 mmtop got a tenth of a
 * CPU: its first interval came after 3.7 s and the next ones seconds late.
 * So mmtop runs at nice -20, as atop does, waking once an interval. What
 * wakes at a workload's event runs at the nice mmtop was started with:
 * the fork records' reader (at -20 its wake-up after a large parent's
 * fork took the CPU from the parent inside the fork() mmtop times) and
 * the command of -- COMMAND.
 */
#ifndef MMTOP_PRIORITY_H
#define MMTOP_PRIORITY_H

/*
 * The calling thread (and the threads and processes it creates from now
 * on) to nice -20; without the privilege, the priority stays as it was.
 */
void priority_raise(void);
/* The calling thread to the nice mmtop was started with. */
void priority_caller(void);

#endif
