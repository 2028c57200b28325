/* SPDX-License-Identifier: GPL-2.0 */
/* On the include path of the collector, the model and the files: see Makefile. */
#error "only ui/ draws on the terminal: this folder must not include curses"
