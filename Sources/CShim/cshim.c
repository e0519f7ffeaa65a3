#define _GNU_SOURCE
#include <link.h>
#include <unistd.h>
#include "cshim.h"

typedef struct { cshim_address_range *ranges; int capacity; int count; int writable; } segment_list;

static int collect_segments(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    segment_list *list = (segment_list *)context;
    uintptr_t page = (uintptr_t)getpagesize();
    for (int i = 0; i < info->dlpi_phnum && list->count < list->capacity; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD || ((header->p_flags & PF_W) != 0) != (list->writable != 0)) continue;
        uintptr_t first = info->dlpi_addr + header->p_vaddr;
        uintptr_t last = first + header->p_filesz;
        uintptr_t start, end;
        if (list->writable) {
            // Every page holding some of the file's bytes.
            start = first & ~(page - 1);
            end = (last + page - 1) & ~(page - 1);
        } else {
            // Whole pages only: a page shared with a neighbouring segment is left alone.
            start = (first + page - 1) & ~(page - 1);
            end = last & ~(page - 1);
        }
        if (end <= start) continue;
        list->ranges[list->count].start = start;
        list->ranges[list->count].end = end;
        list->count++;
    }
    return 1; // The first object dl_iterate_phdr reports is the executable: stop there.
}

int cshim_executable_readonly_segments(cshim_address_range *ranges, int capacity) {
    segment_list list = { ranges, capacity, 0, 0 };
    dl_iterate_phdr(collect_segments, &list);
    return list.count;
}

int cshim_executable_writable_segments(cshim_address_range *ranges, int capacity) {
    segment_list list = { ranges, capacity, 0, 1 };
    dl_iterate_phdr(collect_segments, &list);
    return list.count;
}

int cshim_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
