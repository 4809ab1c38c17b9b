#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/fb.h>

/* ioctl is variadic, which Swift cannot call: one fixed signature per argument kind. */
static inline int clinux_ioctl_value(int fd, unsigned long request, unsigned long value) {
    return ioctl(fd, request, value);
}
static inline int clinux_ioctl_pointer(int fd, unsigned long request, void *arg) {
    return ioctl(fd, request, arg);
}
#include <malloc.h>
#include <sys/random.h>
