/*
 * wbench.c — what a tick's writes cost on this machine, three ways (issue
 * 13's "measure both"): N loopback TCP connections each get one small
 * message per round, written
 *   plain    one writev per connection on the calling thread (io-threads=1)
 *   threads  the same writes fanned out over T threads (net/iothreads.c,
 *            the server's own code)
 *   uring    one io_uring SQE per connection, submitted and reaped in one
 *            io_uring_submit_and_wait (liburing)
 * A child process drains the other ends. Prints, per mode, the wall time
 * of a round (what the game thread waits) and the CPU time of the process
 * (all its threads), both per write.
 *
 *   cc -O2 -D_GNU_SOURCE -Isrc tools/wbench.c build/libmc.a -luring -ldeflate -lcrypto -lpthread -o
 * build/wbench build/wbench [connections=2000] [rounds=200] [bytes=200] [threads=2]
 *
 * Talks to 127.0.0.1 only; the child is killed by its PID at the end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/iothreads.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void drain(int *fds, int n)
{
    int ep = epoll_create1(0);
    for (int i = 0; i < n; i++) {
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = fds[i]};
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
    }
    static char buf[1 << 16];
    struct epoll_event evs[512];
    for (;;) {
        int k = epoll_wait(ep, evs, 512, 1000);
        for (int i = 0; i < k; i++)
            while (read(evs[i].data.fd, buf, sizeof buf) > 0) {
            }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    int rounds = argc > 2 ? atoi(argv[2]) : 200;
    int bytes = argc > 3 ? atoi(argv[3]) : 200;
    int threads = argc > 4 ? atoi(argv[4]) : 2;
    if (n < 1 || n > 9000 || rounds < 1 || bytes < 1 || bytes > 60000) {
        fprintf(stderr, "usage: wbench [connections<=9000] [rounds] [bytes] [threads]\n");
        return 2;
    }
    struct rlimit rl = {20000, 20000};
    setrlimit(RLIMIT_NOFILE, &rl);
    signal(SIGPIPE, SIG_IGN);
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    if (bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 4096) < 0 ||
        getsockname(ls, (struct sockaddr *)&a, &al) < 0) {
        perror("listen");
        return 1;
    }
    int *srv = calloc((size_t)n, sizeof *srv), *cli = calloc((size_t)n, sizeof *cli);
    for (int i = 0; i < n; i++) {
        cli[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(cli[i], (struct sockaddr *)&a, sizeof a) < 0) {
            perror("connect");
            return 1;
        }
        srv[i] = accept(ls, NULL, NULL);
        int one = 1;
        setsockopt(srv[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(srv[i], F_SETFL, O_NONBLOCK);
    }
    pid_t child = fork();
    if (child == 0) {
        drain(cli, n);
        _exit(0);
    }
    for (int i = 0; i < n; i++) close(cli[i]);
    uint8_t *msg = malloc((size_t)bytes);
    memset(msg, 'm', (size_t)bytes);
    shframe *f = shframe_new(msg, (size_t)bytes);
    outq *q = calloc((size_t)n, sizeof *q);
    struct io_job *jobs = calloc((size_t)n, sizeof *jobs);
    for (int i = 0; i < n; i++) outq_init(&q[i], 1u << 20);
    struct io_uring ring;
    int ur = io_uring_queue_init(4096, &ring, 0);
    if (ur < 0) fprintf(stderr, "io_uring_queue_init: %s (uring mode skipped)\n", strerror(-ur));
    if (iothreads_start(threads) < 0) return 1;
    const char *names[3] = {"plain", "threads", "uring"};
    printf("%d connections, %d rounds, %d bytes, %d threads\n", n, rounds, bytes, threads);
    for (int mode = 0; mode < 3; mode++) {
        if (mode == 2 && ur < 0) continue;
        double w0 = now_s(), c0 = cpu_s();
        long failed = 0;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < n; i++) {
                outq_ref(&q[i], f, 0, (size_t)bytes);
                jobs[i] = (struct io_job){.fd = srv[i], .q = &q[i]};
            }
            if (mode == 0) {
                for (int i = 0; i < n; i++) iothreads_write_one(&jobs[i]);
            } else if (mode == 1) {
                iothreads_write(jobs, (size_t)n);
            } else {
                static struct iovec iov[9000];
                int done = 0;
                for (int i = 0; i < n;) {
                    int batch = 0;
                    for (; i < n && batch < 4096; i++, batch++) {
                        struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
                        iov[i] = (struct iovec){f->data, (size_t)bytes};
                        io_uring_prep_writev(sqe, srv[i], &iov[i], 1, 0);
                        sqe->user_data = (uint64_t)i;
                    }
                    io_uring_submit_and_wait(&ring, (unsigned)batch);
                    struct io_uring_cqe *cqe;
                    for (int k = 0; k < batch; k++) {
                        if (io_uring_wait_cqe(&ring, &cqe) < 0) break;
                        int idx = (int)cqe->user_data;
                        jobs[idx].written = cqe->res > 0 ? (size_t)cqe->res : 0;
                        jobs[idx].writes = 1;
                        io_uring_cqe_seen(&ring, cqe);
                        done++;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (jobs[i].written != (size_t)bytes) failed++;
                outq_clear(&q[i]);
            }
            usleep(2000); /* let the reader drain: a tick's gap, shortened */
        }
        double wall = now_s() - w0 - rounds * 0.002, cpu = cpu_s() - c0;
        double writes = (double)n * rounds;
        printf("%-8s wall %.2f us/write (round %.2f ms)  cpu %.2f us/write  short writes %ld\n",
               names[mode], wall / writes * 1e6, wall / rounds * 1e3, cpu / writes * 1e6, failed);
    }
    iothreads_stop();
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return 0;
}
