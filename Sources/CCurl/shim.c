#include "CCurlShim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

CURLcode vd_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode vd_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode vd_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode vd_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode vd_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode vd_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static curl_socket_t vd_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    vd_transfer_callbacks *callbacks = clientp;
    if (purpose != CURLSOCKTYPE_IPCXN) {
        return CURL_SOCKET_BAD;
    }
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        struct sockaddr_in in;
        memcpy(&in, &address->addr, sizeof in);
        if (!callbacks->destination(callbacks->context, (const unsigned char *)&in.sin_addr, 4, ntohs(in.sin_port))) {
            return CURL_SOCKET_BAD;
        }
    } else if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        struct sockaddr_in6 in6;
        memcpy(&in6, &address->addr, sizeof in6);
        if (!callbacks->destination(callbacks->context, (const unsigned char *)&in6.sin6_addr, 16,
                                    ntohs(in6.sin6_port))) {
            return CURL_SOCKET_BAD;
        }
    } else {
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static size_t vd_write_body(char *bytes, size_t size, size_t count, void *userdata) {
    vd_transfer_callbacks *callbacks = userdata;
    return callbacks->body(callbacks->context, bytes, size * count);
}

static size_t vd_write_header(char *bytes, size_t size, size_t count, void *userdata) {
    vd_transfer_callbacks *callbacks = userdata;
    return callbacks->header(callbacks->context, bytes, size * count);
}

CURLcode vd_curl_install_callbacks(CURL *handle, vd_transfer_callbacks *callbacks) {
    CURLcode code;
    if ((code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, vd_open_socket)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, callbacks)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, vd_write_body)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_WRITEDATA, callbacks)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, vd_write_header)) != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_HEADERDATA, callbacks);
}

int vd_curl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
