#ifndef FLICKD_CSHIM_H
#define FLICKD_CSHIM_H
// What Swift cannot import on its own: the epoll, timerfd, signalfd and xattr headers are not in
// Swift's Glibc module, and glibc spells several of their flags as enum members or macros
// that do not come through as plain integers. Each is re-exported here as a constant of the
// type the syscall takes.
#include <stdint.h>
#include <signal.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#include <malloc.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/xattr.h>

// epoll
static const int cshim_epoll_cloexec = EPOLL_CLOEXEC;
static const int cshim_epoll_ctl_add = EPOLL_CTL_ADD;
static const int cshim_epoll_ctl_del = EPOLL_CTL_DEL;
static const uint32_t cshim_epollin = EPOLLIN;
static const uint32_t cshim_epollerr = EPOLLERR;
static const uint32_t cshim_epollhup = EPOLLHUP;

// timerfd
static const int cshim_tfd_cloexec = TFD_CLOEXEC;
static const int cshim_tfd_nonblock = TFD_NONBLOCK;
static const int cshim_tfd_timer_abstime = TFD_TIMER_ABSTIME;

// signalfd
static const int cshim_sfd_cloexec = SFD_CLOEXEC;
static const int cshim_sfd_nonblock = SFD_NONBLOCK;

// The clock every timestamp in flickd is on (evdev events, timerfd deadlines, ticks).
static const clockid_t cshim_clock_monotonic = CLOCK_MONOTONIC;
// CLOCK_MONOTONIC and the time the machine was suspended: only to tell a suspend.
static const clockid_t cshim_clock_boottime = CLOCK_BOOTTIME;

// madvise and posix_fadvise advice (macros in glibc's headers).
static const int cshim_madv_random = MADV_RANDOM;
static const int cshim_madv_dontneed = MADV_DONTNEED;
static const int cshim_posix_fadv_dontneed = POSIX_FADV_DONTNEED;

// The executable's own read-only load segments (code, constants, Swift metadata, unwind
// tables), from its program headers, each shrunk to the whole pages inside it. Writable
// segments are left out, RELRO among them: their pages hold relocated or written data that
// exists nowhere but in memory. dl_iterate_phdr is not in Swift's Glibc module (it needs
// _GNU_SOURCE before every header), hence this walk in cshim.c.
typedef struct { uintptr_t start; uintptr_t end; } cshim_address_range;

/// Fills `ranges` with up to `capacity` read-only segments of the executable; returns how many.
int cshim_executable_readonly_segments(cshim_address_range *ranges, int capacity);

/// The same for the writable load segments (RELRO, data), each widened to every page that holds
/// some of the file's bytes: for advice that loses nothing (MADV_RANDOM), never for unmapping.
int cshim_executable_writable_segments(cshim_address_range *ranges, int capacity);

/// pipe2(fds, O_CLOEXEC): both ends close on exec from their creation (pipe2 needs _GNU_SOURCE,
/// which Swift's Glibc module is not built with). 0, or -1 with errno set.
int cshim_pipe_cloexec(int fds[2]);

#endif
