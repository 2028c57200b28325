/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's CPU priority during start-up. Loading the BPF objects
 * (the verifier, the kernel's BTF) takes a few hundred milliseconds of
 * CPU; behind ten unprivileged CPU-bound processes (twenty runnable
 * threads on two CPUs) a nice-0 mmtop got a tenth of a CPU and showed its
 * first interval after 3.7 s. So start-up runs at nice -20. Sampling goes
 * back to the nice mmtop was started with: at -20 (as atop samples) the
 * wake-up for a large parent's fork record put mmtop on the CPU in the
 * middle of the forking workload's fork(), which then took up to three
 * times as long as mmtop's own window showed.
 */
#ifndef MMTOP_PRIORITY_H
#define MMTOP_PRIORITY_H

/*
 * The calling thread (and the threads it creates from now on) to nice
 * -20; without the privilege, the priority stays as it was.
 */
void priority_raise(void);
/* The calling thread back to the nice mmtop was started with. */
void priority_restore(void);

#endif
