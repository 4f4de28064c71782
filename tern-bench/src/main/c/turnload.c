/*
 * turnload: the data phase of the relay benchmark, in C, so that the load costs less CPU per
 * packet than the servers it measures (bench/README.md, "Load generator cost").
 *
 * The Java generator (io.tern.bench.load) makes the allocations, permissions and channels with
 * its tested TURN client, stops reading its sockets, and starts this program with their file
 * descriptor numbers. turnload takes duplicates of those sockets from the Java process
 * (pidfd_getfd, Linux 5.6+), then runs the closed loop on them: ChannelData client -> relay ->
 * peer, the peer echoes to the relay address, relay -> client. One thread, level-triggered epoll,
 * recvmmsg/sendmmsg in batches of 64 on UDP, one write per connection and turn on TCP.
 *
 * It runs a warm-up phase and a measured phase, each until both a round-trip count and a
 * duration are reached (bounded by --max-seconds), drains what is in flight after each, reads
 * the server's utime/stime from /proc at the measured phase's edges, and prints one JSON object.
 *
 * Build: gcc -O2 -Wall -o turnload turnload.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define BATCH 64
#define MAX_DATAGRAM 2048
#define MAX_CLIENTS 4096
#define MAX_PEERS 64
#define MAX_WINDOW 65535
#define HEADER_BYTES 4
#define PAYLOAD_HEADER 24
#define MAGIC 0x7e4e4c44u
#define STREAM_RX_BYTES 65536
#define STREAM_TX_BYTES (256 * 1024)
#define HIST_BUCKETS 4096

enum { PEER_TAG = 1u << 30 };

struct client {
    int fd;
    int channel;
    int pending;                       /* UDP: datagrams queued in tx */
    struct mmsghdr tx[BATCH];
    struct iovec txv[BATCH];
    /* TCP */
    unsigned char *rx;
    int rx_len;
    unsigned char *out;
    int out_len;
    int out_off;
    int want_out;
};

struct slot {
    uint64_t seq;
    uint64_t sent_ns;
    int client;
    int outstanding;
    unsigned char *frame;              /* header + payload (+ padding on TCP) */
};

static struct client clients[MAX_CLIENTS];
static int client_count;
static int peer_fds[MAX_PEERS];
static int peer_count;
static struct slot *slots;
static int window = 8;
static int payload = 1200;
static int stream;
static int connected;
static struct sockaddr_in server;
static int epfd;
static int frame_bytes;
static int round_robin;
static uint64_t next_seq = 1;
static long server_pid = -1;
static long loss_timeout_ns = 1000000000L;

static int running;
static uint64_t completed;
static uint64_t lost, corrupt, duplicate, late, unknown;
static uint32_t hist[HIST_BUCKETS];

static unsigned char peer_buf[BATCH][MAX_DATAGRAM];
static struct mmsghdr peer_msgs[BATCH];
static struct iovec peer_iov[BATCH];
/* The Java side may hand over IPv6 (dual-stack) sockets: room for either address family. */
static struct sockaddr_storage peer_from[BATCH];
static unsigned char client_buf[BATCH][MAX_DATAGRAM];
static struct mmsghdr client_msgs[BATCH];
static struct iovec client_iov[BATCH];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "turnload: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* Log-linear histogram, 128 sub-buckets per power of two (< 0.8% error). */
static int bucket(uint64_t v) {
    if (v < 256) {
        return (int) v;
    }
    int msb = 63 - __builtin_clzll(v);
    int shift = msb - 7;
    int index = (shift + 1) * 128 + (int) ((v >> shift) - 128);
    return index < HIST_BUCKETS ? index : HIST_BUCKETS - 1;
}

static double bucket_value(int index) {
    if (index < 256) {
        return index;
    }
    int shift = index / 128 - 1;
    uint64_t low = (uint64_t) (128 + index % 128) << shift;
    return (double) low + (double) ((1ull << shift) - 1) / 2.0;
}

static double percentile(double p) {
    uint64_t total = 0;
    for (int i = 0; i < HIST_BUCKETS; i++) {
        total += hist[i];
    }
    if (total == 0) {
        return 0;
    }
    uint64_t rank = (uint64_t) (p / 100.0 * (double) total + 0.5);
    if (rank < 1) {
        rank = 1;
    }
    uint64_t seen = 0;
    for (int i = 0; i < HIST_BUCKETS; i++) {
        seen += hist[i];
        if (seen >= rank) {
            return bucket_value(i);
        }
    }
    return bucket_value(HIST_BUCKETS - 1);
}

static void put32(unsigned char *p, uint32_t v) {
    memcpy(p, &v, 4);
}

static uint32_t get32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void put64(unsigned char *p, uint64_t v) {
    memcpy(p, &v, 8);
}

static uint64_t get64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Body bytes after the payload header: fixed per slot, compared byte for byte on the echo. */
static void fill_body(unsigned char *body, int n, int slot) {
    for (int i = 0; i < n; i++) {
        body[i] = (unsigned char) (slot * 31 + i * 7 + 1);
    }
}

static void stream_write(struct client *c, const unsigned char *bytes, int n);

/* Issues slot s on the next client: a new sequence number, queued (not yet sent). */
static void issue(int s) {
    struct slot *sl = &slots[s];
    int ci = round_robin;
    round_robin = round_robin + 1 == client_count ? 0 : round_robin + 1;
    struct client *c = &clients[ci];
    sl->seq = next_seq++;
    sl->client = ci;
    sl->outstanding = 1;
    unsigned char *p = sl->frame;
    p[0] = (unsigned char) (c->channel >> 8);
    p[1] = (unsigned char) c->channel;
    p[2] = (unsigned char) (payload >> 8);
    p[3] = (unsigned char) payload;
    put32(p + 4, MAGIC);
    put32(p + 8, (uint32_t) s);
    put64(p + 12, sl->seq);
    put32(p + 20, (uint32_t) ci);
    put32(p + 24, (uint32_t) payload);
    sl->sent_ns = now_ns();
    if (stream) {
        stream_write(c, p, frame_bytes);
        return;
    }
    int i = c->pending++;
    c->txv[i].iov_base = p;
    c->txv[i].iov_len = (size_t) frame_bytes;
    c->tx[i].msg_hdr.msg_iov = &c->txv[i];
    c->tx[i].msg_hdr.msg_iovlen = 1;
    c->tx[i].msg_hdr.msg_name = connected ? NULL : &server;
    c->tx[i].msg_hdr.msg_namelen = connected ? 0 : sizeof server;
    if (c->pending == BATCH) {
        int left = c->pending, off = 0;
        while (left > 0) {
            int r = sendmmsg(c->fd, c->tx + off, (unsigned) left, 0);
            if (r <= 0) {
                break; /* the packets stay outstanding and expire as lost */
            }
            off += r;
            left -= r;
        }
        c->pending = 0;
    }
}

static void flush_udp(struct client *c) {
    int off = 0;
    while (off < c->pending) {
        int r = sendmmsg(c->fd, c->tx + off, (unsigned) (c->pending - off), 0);
        if (r <= 0) {
            if (r < 0 && errno == EINTR) {
                continue;
            }
            break;
        }
        off += r;
    }
    c->pending = 0;
}

static void set_out_interest(struct client *c, int want) {
    if (c->want_out == want) {
        return;
    }
    c->want_out = want;
    struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.u32 = (uint32_t) (c - clients)};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) {
        die("epoll_ctl MOD");
    }
}

static void stream_flush(struct client *c) {
    while (c->out_off < c->out_len) {
        ssize_t w = write(c->fd, c->out + c->out_off, (size_t) (c->out_len - c->out_off));
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN) {
                set_out_interest(c, 1);
                return;
            }
            die("write");
        }
        c->out_off += (int) w;
    }
    c->out_off = c->out_len = 0;
    set_out_interest(c, 0);
}

static void stream_write(struct client *c, const unsigned char *bytes, int n) {
    if (c->out_len + n > STREAM_TX_BYTES) {
        stream_flush(c);
        if (c->out_off > 0) {
            memmove(c->out, c->out + c->out_off, (size_t) (c->out_len - c->out_off));
            c->out_len -= c->out_off;
            c->out_off = 0;
        }
        if (c->out_len + n > STREAM_TX_BYTES) {
            return; /* cannot happen with windows below STREAM_TX_BYTES / frame: counted lost later */
        }
    }
    memcpy(c->out + c->out_len, bytes, (size_t) n);
    c->out_len += n;
}

static void flush_all(void) {
    for (int i = 0; i < client_count; i++) {
        if (stream) {
            if (clients[i].out_len > clients[i].out_off && !clients[i].want_out) {
                stream_flush(&clients[i]);
            }
        } else if (clients[i].pending > 0) {
            flush_udp(&clients[i]);
        }
    }
}

/* One echoed ChannelData frame (header included) that arrived on client ci. */
static void on_echo(int ci, const unsigned char *f, int n, uint64_t t) {
    if (n < HEADER_BYTES) {
        corrupt++;
        return;
    }
    int first = f[0];
    if ((first & 0xc0) != 0x40) {
        return; /* a STUN message (a late response); not data */
    }
    int channel = (f[0] << 8) | f[1];
    int length = (f[2] << 8) | f[3];
    if (channel != clients[ci].channel || length != payload || n < HEADER_BYTES + length) {
        corrupt++;
        return;
    }
    const unsigned char *p = f + HEADER_BYTES;
    uint32_t s = get32(p + 4);
    if (get32(p) != MAGIC || s >= (uint32_t) window) {
        corrupt++;
        return;
    }
    struct slot *sl = &slots[s];
    uint64_t seq = get64(p + 8);
    if (get32(p + 16) != (uint32_t) ci) {
        unknown++; /* the echo came back on another allocation */
        return;
    }
    if (memcmp(p, sl->frame + HEADER_BYTES, (size_t) payload) != 0) {
        if (sl->outstanding && seq == sl->seq) {
            corrupt++;
        } else if (seq < sl->seq) {
            late++;
        } else {
            corrupt++;
        }
        return;
    }
    if (!sl->outstanding) {
        duplicate++;
        return;
    }
    sl->outstanding = 0;
    completed++;
    hist[bucket(t - sl->sent_ns)]++;
    if (running) {
        issue((int) s);
    }
}

static void read_peer(int fd) {
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < BATCH; i++) {
            peer_iov[i].iov_base = peer_buf[i];
            peer_iov[i].iov_len = MAX_DATAGRAM;
            peer_msgs[i].msg_hdr.msg_iov = &peer_iov[i];
            peer_msgs[i].msg_hdr.msg_iovlen = 1;
            peer_msgs[i].msg_hdr.msg_name = &peer_from[i];
            peer_msgs[i].msg_hdr.msg_namelen = sizeof peer_from[i];
            peer_msgs[i].msg_hdr.msg_control = NULL;
            peer_msgs[i].msg_hdr.msg_controllen = 0;
            peer_msgs[i].msg_hdr.msg_flags = 0;
        }
        int n = recvmmsg(fd, peer_msgs, BATCH, MSG_DONTWAIT, NULL);
        if (n <= 0) {
            return;
        }
        /* Echo each datagram to its sender (the relay address), from the same buffers. */
        for (int i = 0; i < n; i++) {
            peer_iov[i].iov_len = peer_msgs[i].msg_len;
        }
        int off = 0;
        while (off < n) {
            int w = sendmmsg(fd, peer_msgs + off, (unsigned) (n - off), 0);
            if (w <= 0) {
                if (w < 0 && errno == EINTR) {
                    continue;
                }
                break;
            }
            off += w;
        }
        if (n < BATCH) {
            return;
        }
    }
}

static void read_udp_client(int ci) {
    struct client *c = &clients[ci];
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < BATCH; i++) {
            client_iov[i].iov_base = client_buf[i];
            client_iov[i].iov_len = MAX_DATAGRAM;
            client_msgs[i].msg_hdr.msg_iov = &client_iov[i];
            client_msgs[i].msg_hdr.msg_iovlen = 1;
            client_msgs[i].msg_hdr.msg_name = NULL;
            client_msgs[i].msg_hdr.msg_namelen = 0;
            client_msgs[i].msg_hdr.msg_control = NULL;
            client_msgs[i].msg_hdr.msg_controllen = 0;
            client_msgs[i].msg_hdr.msg_flags = 0;
        }
        int n = recvmmsg(c->fd, client_msgs, BATCH, MSG_DONTWAIT, NULL);
        if (n <= 0) {
            return;
        }
        uint64_t t = now_ns();
        for (int i = 0; i < n; i++) {
            on_echo(ci, client_buf[i], (int) client_msgs[i].msg_len, t);
        }
        if (n < BATCH) {
            return;
        }
    }
}

static void read_stream_client(int ci) {
    struct client *c = &clients[ci];
    ssize_t r = read(c->fd, c->rx + c->rx_len, (size_t) (STREAM_RX_BYTES - c->rx_len));
    if (r < 0) {
        if (errno == EAGAIN || errno == EINTR) {
            return;
        }
        die("read");
    }
    if (r == 0) {
        fprintf(stderr, "turnload: server closed client connection %d\n", ci);
        exit(3);
    }
    c->rx_len += (int) r;
    uint64_t t = now_ns();
    int off = 0;
    while (c->rx_len - off >= 4) {
        const unsigned char *f = c->rx + off;
        int frame;
        if ((f[0] & 0xc0) == 0x40) {
            int length = (f[2] << 8) | f[3];
            frame = HEADER_BYTES + ((length + 3) & ~3);
        } else {
            if (c->rx_len - off < 20) {
                break;
            }
            frame = 20 + ((f[2] << 8) | f[3]); /* a STUN message */
        }
        if (c->rx_len - off < frame) {
            break;
        }
        on_echo(ci, f, frame, t);
        off += frame;
    }
    if (off > 0) {
        memmove(c->rx, c->rx + off, (size_t) (c->rx_len - off));
        c->rx_len -= off;
    }
}

static int outstanding(void) {
    int n = 0;
    for (int s = 0; s < window; s++) {
        n += slots[s].outstanding;
    }
    return n;
}

static void expire(uint64_t t) {
    for (int s = 0; s < window; s++) {
        if (slots[s].outstanding && t - slots[s].sent_ns > (uint64_t) loss_timeout_ns) {
            slots[s].outstanding = 0;
            lost++;
            if (running) {
                issue(s);
            }
        }
    }
}

static void turn(int timeout_ms) {
    struct epoll_event events[256];
    int n = epoll_wait(epfd, events, 256, timeout_ms);
    if (n < 0) {
        if (errno == EINTR) {
            return;
        }
        die("epoll_wait");
    }
    for (int i = 0; i < n; i++) {
        uint32_t tag = events[i].data.u32;
        if (tag & PEER_TAG) {
            read_peer(peer_fds[tag & ~PEER_TAG]);
        } else if (stream) {
            if (events[i].events & EPOLLOUT) {
                stream_flush(&clients[tag]);
            }
            if (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
                read_stream_client((int) tag);
            }
        } else {
            read_udp_client((int) tag);
        }
    }
    flush_all();
}

/* Runs one phase: fill the window, run until both bounds are met (or maxNs), then drain. */
static void phase(uint64_t round_trips, double min_seconds, double max_seconds) {
    completed = lost = corrupt = duplicate = late = unknown = 0;
    memset(hist, 0, sizeof hist);
    running = 1;
    for (int s = 0; s < window; s++) {
        if (!slots[s].outstanding) {
            issue(s);
        }
    }
    flush_all();
    uint64_t start = now_ns();
    uint64_t min_ns = (uint64_t) (min_seconds * 1e9);
    uint64_t max_ns = (uint64_t) (max_seconds * 1e9);
    uint64_t last_expiry = start;
    for (;;) {
        turn(10);
        uint64_t t = now_ns();
        if (t - last_expiry > 10000000ull) {
            expire(t);
            flush_all();
            last_expiry = t;
        }
        if ((completed >= round_trips && t - start >= min_ns) || t - start >= max_ns) {
            break;
        }
    }
    running = 0;
    uint64_t drain_start = now_ns();
    while (outstanding() > 0 && now_ns() - drain_start < (uint64_t) loss_timeout_ns + 1000000000ull) {
        turn(10);
        expire(now_ns());
    }
}

static void server_cpu(double *total, double *system) {
    *total = *system = -1;
    if (server_pid <= 0) {
        return;
    }
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%ld/stat", server_pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (p == NULL) {
        return;
    }
    p += 2;
    /* Fields from 3 (state); utime is 14, stime 15. */
    unsigned long utime = 0, stime = 0;
    int field = 3;
    char *save = NULL;
    for (char *tok = strtok_r(p, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save), field++) {
        if (field == 14) {
            utime = strtoul(tok, NULL, 10);
        } else if (field == 15) {
            stime = strtoul(tok, NULL, 10);
            break;
        }
    }
    long hz = sysconf(_SC_CLK_TCK);
    *total = (double) (utime + stime) / (double) hz;
    *system = (double) stime / (double) hz;
}

static double own_cpu(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double) u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double) u.ru_stime.tv_sec
            + u.ru_stime.tv_usec / 1e6;
}

static int grab(int pidfd, int remote_fd) {
    int fd = (int) syscall(SYS_pidfd_getfd, pidfd, remote_fd, 0);
    if (fd < 0) {
        die("pidfd_getfd");
    }
    return fd;
}

static void usage(void) {
    fprintf(stderr,
            "usage: turnload --owner-pid PID --clients FD[,FD...] --peers FD[,FD...] --channel N --server IP:PORT\n"
            "  [--stream] [--connected] [--payload N] [--window N] [--round-trips N] [--min-seconds S]\n"
            "  [--warmup-round-trips N] [--warmup-seconds S] [--max-seconds S] [--loss-timeout-ms N]\n"
            "  [--server-pid PID]\n");
    exit(2);
}

static int parse_list(char *s, int *out, int max) {
    int n = 0;
    for (char *tok = strtok(s, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (n == max) {
            fprintf(stderr, "turnload: too many descriptors\n");
            exit(2);
        }
        out[n++] = atoi(tok);
    }
    return n;
}

int main(int argc, char **argv) {
    long owner = -1;
    int channel = 0x4000;
    static int client_fds[MAX_CLIENTS];
    int remote_peers[MAX_PEERS];
    uint64_t round_trips = 200000, warm_round_trips = 20000;
    double min_seconds = 2, warm_seconds = 0, max_seconds = 60;
    char *server_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--stream")) {
            stream = 1;
            continue;
        }
        if (!strcmp(a, "--connected")) {
            connected = 1;
            continue;
        }
        if (v == NULL) {
            usage();
        }
        i++;
        if (!strcmp(a, "--owner-pid")) owner = atol(v);
        else if (!strcmp(a, "--clients")) client_count = parse_list(argv[i], client_fds, MAX_CLIENTS);
        else if (!strcmp(a, "--peers")) peer_count = parse_list(argv[i], remote_peers, MAX_PEERS);
        else if (!strcmp(a, "--channel")) channel = atoi(v);
        else if (!strcmp(a, "--server")) server_arg = argv[i];
        else if (!strcmp(a, "--payload")) payload = atoi(v);
        else if (!strcmp(a, "--window")) window = atoi(v);
        else if (!strcmp(a, "--round-trips")) round_trips = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--min-seconds")) min_seconds = atof(v);
        else if (!strcmp(a, "--warmup-round-trips")) warm_round_trips = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--warmup-seconds")) warm_seconds = atof(v);
        else if (!strcmp(a, "--max-seconds")) max_seconds = atof(v);
        else if (!strcmp(a, "--loss-timeout-ms")) loss_timeout_ns = atol(v) * 1000000L;
        else if (!strcmp(a, "--server-pid")) server_pid = atol(v);
        else usage();
    }
    if (owner <= 0 || client_count == 0 || peer_count == 0 || server_arg == NULL) {
        usage();
    }
    if (window < 1 || window > MAX_WINDOW || payload < PAYLOAD_HEADER + 4 || payload > MAX_DATAGRAM - 64) {
        fprintf(stderr, "turnload: window 1..%d, payload %d..%d\n", MAX_WINDOW, PAYLOAD_HEADER + 4, MAX_DATAGRAM - 64);
        return 2;
    }
    char *colon = strrchr(server_arg, ':');
    if (colon == NULL) {
        usage();
    }
    *colon = 0;
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t) atoi(colon + 1));
    if (inet_pton(AF_INET, server_arg, &server.sin_addr) != 1) {
        usage();
    }

    int pidfd = (int) syscall(SYS_pidfd_open, (pid_t) owner, 0);
    if (pidfd < 0) {
        die("pidfd_open");
    }
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) {
        die("epoll_create1");
    }
    frame_bytes = HEADER_BYTES + (stream ? ((payload + 3) & ~3) : payload);
    for (int i = 0; i < client_count; i++) {
        struct client *c = &clients[i];
        c->fd = grab(pidfd, client_fds[i]);
        c->channel = channel;
        if (stream) {
            c->rx = malloc(STREAM_RX_BYTES);
            c->out = malloc(STREAM_TX_BYTES);
            if (c->rx == NULL || c->out == NULL) {
                die("malloc");
            }
        }
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t) i};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) {
            die("epoll_ctl ADD client");
        }
    }
    for (int i = 0; i < peer_count; i++) {
        peer_fds[i] = grab(pidfd, remote_peers[i]);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = PEER_TAG | (uint32_t) i};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, peer_fds[i], &ev) < 0) {
            die("epoll_ctl ADD peer");
        }
    }
    slots = calloc((size_t) window, sizeof *slots);
    if (slots == NULL) {
        die("calloc");
    }
    for (int s = 0; s < window; s++) {
        slots[s].frame = calloc(1, (size_t) frame_bytes);
        if (slots[s].frame == NULL) {
            die("calloc");
        }
        fill_body(slots[s].frame + HEADER_BYTES + PAYLOAD_HEADER + 4, payload - PAYLOAD_HEADER - 4, s);
    }

    uint64_t warm_start = now_ns();
    if (warm_round_trips > 0 || warm_seconds > 0) {
        phase(warm_round_trips, warm_seconds, max_seconds);
    }
    double warm_wall = (double) (now_ns() - warm_start) / 1e9;
    uint64_t warm_completed = completed;
    uint64_t warm_lost = lost + corrupt + duplicate + unknown;

    double s_cpu0, s_sys0, s_cpu1, s_sys1;
    double g0 = own_cpu();
    server_cpu(&s_cpu0, &s_sys0);
    uint64_t t0 = now_ns();
    phase(round_trips, min_seconds, max_seconds);
    uint64_t t1 = now_ns();
    server_cpu(&s_cpu1, &s_sys1);
    double g1 = own_cpu();
    double seconds = (double) (t1 - t0) / 1e9;
    printf("{\"round_trips\": %llu, \"seconds\": %.6f, \"round_trip_p50_us\": %.3f, \"round_trip_p99_us\": %.3f, "
           "\"lost\": %llu, \"late\": %llu, \"duplicate\": %llu, \"corrupt\": %llu, \"unknown\": %llu, "
           "\"generator_cpu_seconds\": %.4f, \"server_cpu_seconds\": %.4f, \"server_system_cpu_seconds\": %.4f, "
           "\"warmup_round_trips\": %llu, \"warmup_seconds\": %.3f, \"warmup_loss_or_corruption\": %llu}\n",
            (unsigned long long) completed, seconds, percentile(50) / 1000.0, percentile(99) / 1000.0,
            (unsigned long long) lost, (unsigned long long) late, (unsigned long long) duplicate,
            (unsigned long long) corrupt, (unsigned long long) unknown, g1 - g0,
            s_cpu0 < 0 ? -1.0 : s_cpu1 - s_cpu0, s_sys0 < 0 ? -1.0 : s_sys1 - s_sys0,
            (unsigned long long) warm_completed, warm_wall, (unsigned long long) warm_lost);
    return 0;
}
