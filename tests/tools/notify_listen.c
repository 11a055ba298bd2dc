/*
 * notify_listen.c — a stand-in for systemd's notification socket, for
 * tests/e2e/systemd.test.js: binds a Unix datagram socket at argv[1] and
 * prints each message it receives on one line (newlines inside a message
 * become '|'), for at most argv[2] seconds. Node cannot bind Unix datagram
 * sockets, hence this small helper (compiled by the test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: notify_listen PATH SECONDS\n");
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", argv[1]);
    unlink(a.sun_path);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        perror("notify_listen");
        return 1;
    }
    printf("listening\n");
    fflush(stdout);
    time_t end = time(NULL) + atoi(argv[2]);
    struct timeval tv = {.tv_sec = 1};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[4096];
    while (time(NULL) < end) {
        ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
        if (n <= 0) continue;
        buf[n] = 0;
        for (ssize_t i = 0; i < n; i++)
            if (buf[i] == '\n') buf[i] = '|';
        printf("%s\n", buf);
        fflush(stdout);
    }
    unlink(a.sun_path);
    return 0;
}
