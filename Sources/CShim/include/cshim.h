#ifndef FLICKD_CSHIM_H
#define FLICKD_CSHIM_H
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#endif
