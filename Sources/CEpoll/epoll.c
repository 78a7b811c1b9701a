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
        if (e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ready |= VD_EPOLL_READABLE;
        if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) ready |= VD_EPOLL_WRITABLE;
        tokens[i] = events[i].data.u64;
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
