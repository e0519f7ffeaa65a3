#define _GNU_SOURCE
#include <link.h>
#include <unistd.h>
#include "cshim.h"

typedef struct { cshim_address_range *ranges; int capacity; int count; } segment_list;

static int collect_readonly_segments(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    segment_list *list = (segment_list *)context;
    uintptr_t page = (uintptr_t)getpagesize();
    for (int i = 0; i < info->dlpi_phnum && list->count < list->capacity; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) continue;
        // Whole pages only: a page shared with a neighbouring segment is left alone.
        uintptr_t start = (info->dlpi_addr + header->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_filesz) & ~(page - 1);
        if (end <= start) continue;
        list->ranges[list->count].start = start;
        list->ranges[list->count].end = end;
        list->count++;
    }
    return 1; // The first object dl_iterate_phdr reports is the executable: stop there.
}

int cshim_executable_readonly_segments(cshim_address_range *ranges, int capacity) {
    segment_list list = { ranges, capacity, 0 };
    dl_iterate_phdr(collect_readonly_segments, &list);
    return list.count;
}
