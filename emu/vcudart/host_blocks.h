/* host_blocks.h - the sizes of the program's live malloc blocks, which the
 * executor's runtime keeps (host_blocks.cpp) so that a copy from the device
 * into a host array it does not fit is named (issue 40, item 5). */
#ifndef CUGRADE_VCUDART_HOST_BLOCKS_H
#define CUGRADE_VCUDART_HOST_BLOCKS_H

#include <cstddef>

/* The size the program asked malloc, calloc or realloc for the block that
 * starts at p; 0 when unknown (not such a block, or the table was full). */
size_t vcudart_host_size(const void *p);

#endif
