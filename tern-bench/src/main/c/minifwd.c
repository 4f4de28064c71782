/*
 * minifwd: the floor of a plain user-space TURN relay on this kernel, for the relay benchmark.
 *
 * Single-threaded, level-triggered epoll, recvmmsg/sendmmsg in batches of 64, no
 * authentication and no expiry: just enough TURN over UDP for the benchmark's client (Binding,
 * Allocate with XOR-RELAYED-ADDRESS, Refresh, CreatePermission and ChannelBind answered with
 * success, ChannelData relayed both ways). One relay socket per allocation, as a TURN server
 * has. Received datagrams stay in a per-turn arena with 4 bytes of headroom, so relayed data is
 * sent from where it was received, under its ChannelData header; each socket's datagrams of a
 * turn leave in one sendmmsg. It is a measuring stick, not a server: never expose it.
 *
 * Build: gcc -O2 -Wall -o minifwd minifwd.c
 * Run:   minifwd --listen 127.0.0.1:PORT --relay-ip 127.0.0.1 --min-port 50000 --max-port 59999
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define BATCH 64
#define SLOT_BYTES 2052        /* 4 bytes of headroom + 2048 */
#define ARENA_SLOTS 1024
#define MAX_ALLOCATIONS 8192
#define MAX_CHANNELS 8
#define TABLE_SIZE 16384       /* power of two, > 2 x MAX_ALLOCATIONS */
#define MAGIC_COOKIE 0x2112A442u
#define LISTENER_TAG 0xffffffffu
#define SOCKET_BUFFER (4 << 20)

struct channel {
    uint16_t number;
    struct sockaddr_in peer;
};

struct allocation {
    int fd;                    /* relay socket */
    struct sockaddr_in client;
    struct sockaddr_in relayed;
    int channels;
    struct channel channel[MAX_CHANNELS];
};

/* Datagrams queued on one socket this turn. */
struct queue {
    int fd;
    int count;
    int queued;                /* on the turn's list of queues to flush */
    struct mmsghdr msg[BATCH];
    struct iovec iov[BATCH];
    struct sockaddr_in to[BATCH];
};

static struct allocation allocations[MAX_ALLOCATIONS];
static struct queue *relay_queues[MAX_ALLOCATIONS];
static int allocation_count;
static int table[TABLE_SIZE];  /* allocation index + 1 by client address, 0 = empty */
static int listener;
static struct queue listener_queue;
static struct queue *dirty[MAX_ALLOCATIONS + 1];
static int dirty_count;
static struct in_addr relay_ip;
static int min_port = 50000, max_port = 59999, next_port;
static int epfd;

static unsigned char *arena;
static int arena_used;
static struct mmsghdr rx_msg[BATCH];
static struct iovec rx_iov[BATCH];
static struct sockaddr_in rx_from[BATCH];

static unsigned long long relayed_to_peer, relayed_to_client, dropped;

static void die(const char *what) {
    fprintf(stderr, "minifwd: %s: %s\n", what, strerror(errno));
    exit(2);
}

static uint32_t hash_address(const struct sockaddr_in *a) {
    uint64_t k = ((uint64_t) a->sin_addr.s_addr << 16) | a->sin_port;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t) k;
}

static int same_address(const struct sockaddr_in *a, const struct sockaddr_in *b) {
    return a->sin_addr.s_addr == b->sin_addr.s_addr && a->sin_port == b->sin_port;
}

static int find_allocation(const struct sockaddr_in *client) {
    uint32_t h = hash_address(client) & (TABLE_SIZE - 1);
    for (;;) {
        int v = table[h];
        if (v == 0) {
            return -1;
        }
        if (same_address(&allocations[v - 1].client, client)) {
            return v - 1;
        }
        h = (h + 1) & (TABLE_SIZE - 1);
    }
}

static void insert_allocation(int index) {
    uint32_t h = hash_address(&allocations[index].client) & (TABLE_SIZE - 1);
    while (table[h] != 0) {
        h = (h + 1) & (TABLE_SIZE - 1);
    }
    table[h] = index + 1;
}

static void set_buffers(int fd) {
    int size = SOCKET_BUFFER;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
}

static void flush_queue(struct queue *q) {
    int off = 0;
    while (off < q->count) {
        int r = sendmmsg(q->fd, q->msg + off, (unsigned) (q->count - off), 0);
        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            /* An ICMP error or a full buffer: skip the datagram it concerns and go on. */
            dropped++;
            off++;
            continue;
        }
        off += r;
    }
    q->count = 0;
    q->queued = 0;
}

static void flush_all(void) {
    for (int i = 0; i < dirty_count; i++) {
        flush_queue(dirty[i]);
    }
    dirty_count = 0;
    arena_used = 0;
}

static void enqueue(struct queue *q, void *data, size_t length, const struct sockaddr_in *to) {
    if (q->count == BATCH) {
        flush_queue(q);
    }
    int i = q->count++;
    q->iov[i].iov_base = data;
    q->iov[i].iov_len = length;
    q->to[i] = *to;
    memset(&q->msg[i].msg_hdr, 0, sizeof q->msg[i].msg_hdr);
    q->msg[i].msg_hdr.msg_iov = &q->iov[i];
    q->msg[i].msg_hdr.msg_iovlen = 1;
    q->msg[i].msg_hdr.msg_name = &q->to[i];
    q->msg[i].msg_hdr.msg_namelen = sizeof q->to[i];
    if (!q->queued) {
        q->queued = 1;
        dirty[dirty_count++] = q;
    }
}

/* A STUN success response, written over the request in place; returns its length. */
static int put_xor_address(unsigned char *p, uint16_t type, const struct sockaddr_in *a) {
    p[0] = (unsigned char) (type >> 8);
    p[1] = (unsigned char) type;
    p[2] = 0;
    p[3] = 8;
    p[4] = 0;
    p[5] = 1;
    uint16_t port = ntohs(a->sin_port) ^ (uint16_t) (MAGIC_COOKIE >> 16);
    p[6] = (unsigned char) (port >> 8);
    p[7] = (unsigned char) port;
    uint32_t ip = ntohl(a->sin_addr.s_addr) ^ MAGIC_COOKIE;
    p[8] = (unsigned char) (ip >> 24);
    p[9] = (unsigned char) (ip >> 16);
    p[10] = (unsigned char) (ip >> 8);
    p[11] = (unsigned char) ip;
    return 12;
}

static int open_relay(struct sockaddr_in *bound) {
    for (int attempt = 0; attempt <= max_port - min_port; attempt++) {
        int port = min_port + next_port;
        next_port = (next_port + 1) % (max_port - min_port + 1);
        int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            die("socket");
        }
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port), .sin_addr = relay_ip};
        if (bind(fd, (struct sockaddr *) &a, sizeof a) == 0) {
            set_buffers(fd);
            *bound = a;
            return fd;
        }
        close(fd);
    }
    return -1;
}

static const unsigned char *find_attribute(const unsigned char *m, int length, uint16_t type, int *value_length) {
    int off = 20;
    while (off + 4 <= 20 + length) {
        uint16_t t = (uint16_t) ((m[off] << 8) | m[off + 1]);
        int l = (m[off + 2] << 8) | m[off + 3];
        if (off + 4 + l > 20 + length) {
            return NULL;
        }
        if (t == type) {
            *value_length = l;
            return m + off + 4;
        }
        off += 4 + ((l + 3) & ~3);
    }
    return NULL;
}

static void xor_peer(const unsigned char *v, struct sockaddr_in *peer) {
    memset(peer, 0, sizeof *peer);
    peer->sin_family = AF_INET;
    uint16_t port = (uint16_t) (((v[2] << 8) | v[3]) ^ (MAGIC_COOKIE >> 16));
    uint32_t ip = ((uint32_t) v[4] << 24 | (uint32_t) v[5] << 16 | (uint32_t) v[6] << 8 | v[7]) ^ MAGIC_COOKIE;
    peer->sin_port = htons(port);
    peer->sin_addr.s_addr = htonl(ip);
}

static void on_stun(unsigned char *m, int n, const struct sockaddr_in *from) {
    if (n < 20 || (m[0] & 0xc0) != 0 || ntohl(*(uint32_t *) (m + 4)) != MAGIC_COOKIE) {
        return;
    }
    int length = (m[2] << 8) | m[3];
    if (20 + length > n) {
        return;
    }
    uint16_t type = (uint16_t) ((m[0] << 8) | m[1]);
    if ((type & 0x0110) != 0) {
        return; /* only requests are answered */
    }
    uint16_t method = type & 0x3eef;
    int index = find_allocation(from);
    int body = 0;
    unsigned char attributes[64];
    if (method == 0x0003) { /* Allocate */
        if (index < 0) {
            if (allocation_count == MAX_ALLOCATIONS) {
                return;
            }
            struct allocation *a = &allocations[allocation_count];
            a->fd = open_relay(&a->relayed);
            if (a->fd < 0) {
                return;
            }
            a->client = *from;
            a->channels = 0;
            struct queue *q = calloc(1, sizeof *q);
            if (q == NULL) {
                die("calloc");
            }
            q->fd = a->fd;
            relay_queues[allocation_count] = q;
            struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t) allocation_count};
            if (epoll_ctl(epfd, EPOLL_CTL_ADD, a->fd, &ev) < 0) {
                die("epoll_ctl");
            }
            index = allocation_count++;
            insert_allocation(index);
        }
        body += put_xor_address(attributes + body, 0x0016, &allocations[index].relayed);
        body += put_xor_address(attributes + body, 0x0020, from);
        unsigned char lifetime[8] = {0x00, 0x0d, 0x00, 0x04, 0x00, 0x00, 0x02, 0x58};
        memcpy(attributes + body, lifetime, 8);
        body += 8;
    } else if (method == 0x0009 && index >= 0) { /* ChannelBind */
        int cl, pl;
        const unsigned char *c = find_attribute(m, length, 0x000c, &cl);
        const unsigned char *p = find_attribute(m, length, 0x0012, &pl);
        struct allocation *a = &allocations[index];
        if (c != NULL && cl == 4 && p != NULL && pl == 8 && a->channels < MAX_CHANNELS) {
            struct channel *ch = &a->channel[a->channels++];
            ch->number = (uint16_t) ((c[0] << 8) | c[1]);
            xor_peer(p, &ch->peer);
        }
    } else if (method == 0x0001) { /* Binding */
        body += put_xor_address(attributes + body, 0x0020, from);
    } else if (method != 0x0004 && method != 0x0008) { /* not Refresh or CreatePermission */
        return;
    }
    /* Success response: same method, class 10, same transaction id. */
    uint16_t response = (uint16_t) (method | 0x0100);
    m[0] = (unsigned char) (response >> 8);
    m[1] = (unsigned char) response;
    m[2] = (unsigned char) (body >> 8);
    m[3] = (unsigned char) body;
    memcpy(m + 20, attributes, (size_t) body);
    enqueue(&listener_queue, m, (size_t) (20 + body), from);
}

static void on_client(unsigned char *d, int n, const struct sockaddr_in *from) {
    if (n >= 4 && (d[0] & 0xc0) == 0x40) {
        int index = find_allocation(from);
        uint16_t number = (uint16_t) ((d[0] << 8) | d[1]);
        int length = (d[2] << 8) | d[3];
        if (index < 0 || length > n - 4) {
            dropped++;
            return;
        }
        struct allocation *a = &allocations[index];
        for (int c = 0; c < a->channels; c++) {
            if (a->channel[c].number == number) {
                enqueue(relay_queues[index], d + 4, (size_t) length, &a->channel[c].peer);
                relayed_to_peer++;
                return;
            }
        }
        dropped++;
        return;
    }
    on_stun(d, n, from);
}

static void on_peer(int index, unsigned char *d, int n, const struct sockaddr_in *from) {
    struct allocation *a = &allocations[index];
    for (int c = 0; c < a->channels; c++) {
        if (same_address(&a->channel[c].peer, from)) {
            unsigned char *h = d - 4; /* the slot's headroom */
            h[0] = (unsigned char) (a->channel[c].number >> 8);
            h[1] = (unsigned char) a->channel[c].number;
            h[2] = (unsigned char) (n >> 8);
            h[3] = (unsigned char) n;
            enqueue(&listener_queue, h, (size_t) n + 4, &a->client);
            relayed_to_client++;
            return;
        }
    }
    dropped++;
}

/* Reads one ready socket until it is empty or 4 batches were read. */
static void read_socket(int fd, int index) {
    for (int round = 0; round < 4; round++) {
        if (arena_used + BATCH > ARENA_SLOTS) {
            flush_all();
        }
        for (int i = 0; i < BATCH; i++) {
            rx_iov[i].iov_base = arena + (size_t) (arena_used + i) * SLOT_BYTES + 4;
            rx_iov[i].iov_len = SLOT_BYTES - 4;
            memset(&rx_msg[i].msg_hdr, 0, sizeof rx_msg[i].msg_hdr);
            rx_msg[i].msg_hdr.msg_iov = &rx_iov[i];
            rx_msg[i].msg_hdr.msg_iovlen = 1;
            rx_msg[i].msg_hdr.msg_name = &rx_from[i];
            rx_msg[i].msg_hdr.msg_namelen = sizeof rx_from[i];
        }
        int n = recvmmsg(fd, rx_msg, BATCH, MSG_DONTWAIT, NULL);
        if (n <= 0) {
            return;
        }
        arena_used += n;
        for (int i = 0; i < n; i++) {
            if (rx_msg[i].msg_hdr.msg_flags & MSG_TRUNC) {
                dropped++;
                continue;
            }
            unsigned char *d = rx_iov[i].iov_base;
            if (index < 0) {
                on_client(d, (int) rx_msg[i].msg_len, &rx_from[i]);
            } else {
                on_peer(index, d, (int) rx_msg[i].msg_len, &rx_from[i]);
            }
        }
        if (n < BATCH) {
            return;
        }
    }
}

static volatile sig_atomic_t stopping;

static void on_signal(int sig) {
    (void) sig;
    stopping = 1;
}

int main(int argc, char **argv) {
    const char *listen_arg = "127.0.0.1:3478";
    const char *relay_arg = "127.0.0.1";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--listen")) listen_arg = argv[i + 1];
        else if (!strcmp(argv[i], "--relay-ip")) relay_arg = argv[i + 1];
        else if (!strcmp(argv[i], "--min-port")) min_port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-port")) max_port = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: minifwd --listen IP:PORT --relay-ip IP --min-port N --max-port N\n");
            return 2;
        }
    }
    if (min_port < 1 || max_port > 65535 || min_port > max_port) {
        fprintf(stderr, "minifwd: bad port range %d-%d\n", min_port, max_port);
        return 2;
    }
    char host[64];
    const char *colon = strrchr(listen_arg, ':');
    if (colon == NULL || (size_t) (colon - listen_arg) >= sizeof host) {
        fprintf(stderr, "minifwd: --listen IP:PORT\n");
        return 2;
    }
    memcpy(host, listen_arg, (size_t) (colon - listen_arg));
    host[colon - listen_arg] = 0;
    struct sockaddr_in la = {.sin_family = AF_INET, .sin_port = htons((uint16_t) atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &la.sin_addr) != 1 || inet_pton(AF_INET, relay_arg, &relay_ip) != 1) {
        fprintf(stderr, "minifwd: IPv4 addresses only\n");
        return 2;
    }
    arena = malloc((size_t) ARENA_SLOTS * SLOT_BYTES);
    if (arena == NULL) {
        die("malloc");
    }
    listener = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *) &la, sizeof la) < 0) {
        die("bind listener");
    }
    set_buffers(listener);
    listener_queue.fd = listener;
    epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = LISTENER_TAG};
    if (epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, listener, &ev) < 0) {
        die("epoll");
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    printf("minifwd listening on udp %s, relay %s ports %d-%d\n", listen_arg, relay_arg, min_port, max_port);
    fflush(stdout);
    struct epoll_event events[256];
    while (!stopping) {
        int n = epoll_wait(epfd, events, 256, 1000);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            die("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            uint32_t tag = events[i].data.u32;
            if (tag == LISTENER_TAG) {
                read_socket(listener, -1);
            } else {
                read_socket(allocations[tag].fd, (int) tag);
            }
        }
        flush_all();
    }
    printf("minifwd: %llu to peers, %llu to clients, %llu dropped, %d allocations\n", relayed_to_peer,
            relayed_to_client, dropped, allocation_count);
    return 0;
}
