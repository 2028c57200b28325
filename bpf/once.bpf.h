/* SPDX-License-Identifier: GPL-2.0 */
/* One load or store, as written: for words other CPUs read while they change. */
#ifndef MMTOP_BPF_ONCE_H
#define MMTOP_BPF_ONCE_H

#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

#endif
