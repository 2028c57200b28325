/* SPDX-License-Identifier: GPL-2.0 */
/* On the include path of the model, the sinks and the viewer: see Makefile. */
#error "only src/collect/ and src/modes/ talk to libbpf: this folder works on snapshots"
