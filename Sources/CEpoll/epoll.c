#include "CEpoll.h"

#if defined(__linux__)
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>

int vd_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int vd_epoll_arm(int epfd, int fd, int add, int interest, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLONESHOT;
    if (interest & VD_EPOLL_READABLE) event.events |= EPOLLIN;
    if (interest & VD_EPOLL_WRITABLE) event.events |= EPOLLOUT;
    event.data.u64 = token;
    return epoll_ctl(epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

int vd_epoll_remove(int epfd, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

int vd_epoll_take(int epfd, uint64_t *tokens, int *readiness, int capacity) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    if (capacity < 1) return 0;
    int count;
    do {
        count = epoll_wait(epfd, events, capacity, 0);
    } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) {
        uint32_t e = events[i].events;
        int ready = 0;
        if (e & (EPOLLIN | EPOLLHUP | EPOLLERR)) ready |= VD_EPOLL_READABLE;
        if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) ready |= VD_EPOLL_WRITABLE;
        tokens[i] = events[i].data.u64;
        readiness[i] = ready;
    }
    return count;
}

#elif defined(__APPLE__) || defined(__FreeBSD__)
#include <fcntl.h>
/* The same one-shot interest set on kqueue (development machines): each direction is its own one-shot filter. */
#include <errno.h>
#include <string.h>
#include <sys/event.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

int vd_epoll_create(void) {
    int kq = kqueue();
    if (kq >= 0) {
        int flags = fcntl(kq, F_GETFD);
        if (flags >= 0) (void)fcntl(kq, F_SETFD, flags | FD_CLOEXEC);
    }
    return kq;
}

int vd_epoll_arm(int epfd, int fd, int add, int interest, uint64_t token) {
    (void)add;
    struct kevent changes[2];
    int count = 0;
    void *udata = (void *)(uintptr_t)token;
    if (interest & VD_EPOLL_READABLE) {
        EV_SET(&changes[count++], fd, EVFILT_READ, EV_ADD | EV_ONESHOT, 0, 0, udata);
    }
    if (interest & VD_EPOLL_WRITABLE) {
        EV_SET(&changes[count++], fd, EVFILT_WRITE, EV_ADD | EV_ONESHOT, 0, 0, udata);
    }
    if (count == 0) return 0;
    return kevent(epfd, changes, count, NULL, 0, NULL);
}

int vd_epoll_remove(int epfd, int fd) {
    struct kevent changes[2];
    EV_SET(&changes[0], fd, EVFILT_READ, EV_DELETE, 0, 0, NULL);
    EV_SET(&changes[1], fd, EVFILT_WRITE, EV_DELETE, 0, 0, NULL);
    /* A filter that already fired (one-shot) or was never added is gone: ENOENT is expected. */
    struct kevent results[2];
    struct timespec none = {0, 0};
    (void)kevent(epfd, changes, 2, results, 2, &none);
    return 0;
}

int vd_epoll_take(int epfd, uint64_t *tokens, int *readiness, int capacity) {
    struct kevent events[256];
    if (capacity > 256) capacity = 256;
    if (capacity < 1) return 0;
    struct timespec none = {0, 0};
    int count;
    do {
        count = kevent(epfd, NULL, 0, events, capacity, &none);
    } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) {
        int ready = events[i].filter == EVFILT_WRITE ? VD_EPOLL_WRITABLE : VD_EPOLL_READABLE;
        if (events[i].flags & (EV_EOF | EV_ERROR)) ready = VD_EPOLL_READABLE | VD_EPOLL_WRITABLE;
        tokens[i] = (uint64_t)(uintptr_t)events[i].udata;
        readiness[i] = ready;
    }
    return count;
}

#else
#include <errno.h>

int vd_epoll_create(void) { errno = ENOSYS; return -1; }
int vd_epoll_arm(int epfd, int fd, int add, int interest, uint64_t token) {
    (void)epfd; (void)fd; (void)add; (void)interest; (void)token; errno = ENOSYS; return -1;
}
int vd_epoll_remove(int epfd, int fd) { (void)epfd; (void)fd; errno = ENOSYS; return -1; }
int vd_epoll_take(int epfd, uint64_t *tokens, int *readiness, int capacity) {
    (void)epfd; (void)tokens; (void)readiness; (void)capacity; errno = ENOSYS; return -1;
}
#endif
