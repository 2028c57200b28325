/* SPDX-License-Identifier: GPL-2.0 */
/* CRC-32 (IEEE 802.3, reflected 0xEDB88320), as zlib computes it. */
#ifndef MMTOP_CRC32_H
#define MMTOP_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
