#include <sys/epoll.h>
#include <libudev.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
// Macros whose values Swift does not import as the types the calls take.
static const int cfloor_epoll_cloexec = EPOLL_CLOEXEC;
static const int cfloor_epoll_ctl_add = EPOLL_CTL_ADD;
static const int cfloor_epoll_ctl_del = EPOLL_CTL_DEL;
static const unsigned int cfloor_epollin = EPOLLIN;
