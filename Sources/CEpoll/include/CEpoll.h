#ifndef VERIFIERD_CEPOLL_H
#define VERIFIERD_CEPOLL_H

#include <stdint.h>

/// Linux epoll (kqueue on macOS) for the HTTP server's socket readiness (HTTPServer/SocketReadiness.swift), through
/// plain integers: `struct epoll_event` is packed on x86-64 and Glibc's Swift module does not carry <sys/epoll.h>.

/// What a socket is ready for, as reported by `vd_epoll_wait` (a hang-up or an error sets both: the next read or
/// write sees it).
enum {
    VD_EPOLL_READABLE = 1,
    VD_EPOLL_WRITABLE = 2,
};

/// A new close-on-exec epoll descriptor, or -1 with errno.
int vd_epoll_create(void);

/// Adds `fd` (`add` non-zero) or re-arms it with a one-shot interest in `interest` (VD_EPOLL_READABLE and/or
/// VD_EPOLL_WRITABLE; none keeps it registered and disarmed), tagged with `token`. 0, or -1 with errno.
int vd_epoll_arm(int epfd, int fd, int add, int interest, uint64_t token);

/// Removes `fd` from the set. 0, or -1 with errno.
int vd_epoll_remove(int epfd, int fd);

/// Takes up to `capacity` (at most 256) ready entries without waiting: their tokens and VD_EPOLL_* readiness in
/// `tokens` and `readiness`. The count, or -1 with errno.
int vd_epoll_take(int epfd, uint64_t *tokens, int *readiness, int capacity);

#endif
