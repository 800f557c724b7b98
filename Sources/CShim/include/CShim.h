#pragma once
/* CShim: only what Swift cannot call directly.
 * - libcurl's curl_easy_setopt/getinfo, curl_multi_setopt and curl_share_setopt are variadic: Swift cannot call them,
 *   so there is one typed entry per argument kind.
 * - accept4 and a few epoll/socket helpers are GNU-only or macro-based.
 * Everything else (policy, retries, limits) lives in Swift where it is typed and tested. */
#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <pthread.h>

CURLcode cshim_curl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode cshim_curl_setopt_ptr(CURL *h, CURLoption o, const void *v);
CURLcode cshim_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode cshim_curl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode cshim_curl_getinfo_double(CURL *h, CURLINFO i, double *v);
CURLcode cshim_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode cshim_curl_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLcode cshim_curl_getinfo_ptr(CURL *h, CURLINFO i, void **v);
CURLMcode cshim_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v);
CURLSHcode cshim_curl_share_setopt_long(CURLSH *s, CURLSHoption o, long v);

/* accept4 is declared only under _GNU_SOURCE. */
int cshim_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

/* pthread_setname_np is declared only under _GNU_SOURCE; names show in top -H and gdb. */
int cshim_pthread_setname(pthread_t thread, const char *name);

/* malloc_trim is glibc's, in <malloc.h>, which Swift's Glibc module does not import. */
int cshim_malloc_trim(size_t pad);
