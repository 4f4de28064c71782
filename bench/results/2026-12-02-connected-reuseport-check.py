# Does adding or closing connected SO_REUSEPORT sockets move unconnected clients between the
# listeners of a reuseport group (the relay threads)? python3 THIS port|addr (output in
# 2026-12-02-levers-connected.md). 200 client sockets, 2 listeners on 127.0.0.1:47123.
import socket, sys, collections
mode = sys.argv[1]  # 'port' or 'addr'
P = 47123
def lsock():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    if mode == 'addr': s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('127.0.0.1', P)); s.setblocking(False); return s
L = [lsock(), lsock()]
clients = []
for i in range(200):
    c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); c.bind(('127.0.0.1', 0)); clients.append(c)
def where(tag, extra=[]):
    m = {}
    for i, c in enumerate(clients):
        c.sendto(b'x%d' % i, ('127.0.0.1', P))
    import time; time.sleep(0.05)
    for k, s in enumerate(L + extra):
        while True:
            try: d, a = s.recvfrom(100)
            except BlockingIOError: break
            m[int(d[1:])] = k
    return m
before = where('before')
conns = []
for i in range(50):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if mode == 'addr': s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    else: s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind(('127.0.0.1', P)); s.connect(clients[i].getsockname()); s.setblocking(False); conns.append(s)
after = where('after', conns)
moved = sum(1 for i in range(50, 200) if before.get(i) != after.get(i))
onconn = sum(1 for i in range(50) if after.get(i, -1) == 2 + i)
print(mode, 'before dist', collections.Counter(before.values()), 'after', collections.Counter(v for k,v in after.items() if k>=50), 'unconnected clients moved', moved, 'connected delivered on own socket', onconn, 'missing', 200-len(after))
for s in conns[:25]: s.close()
after2 = where('after2', conns[25:])
moved2 = sum(1 for i in range(50, 200) if before.get(i) != after2.get(i))
back = collections.Counter(after2.get(i) for i in range(25))
same = sum(1 for i in range(25) if after2.get(i) == before.get(i))
print('after closing 25: unconnected moved', moved2, 'closed ones now on', back, 'on the listener they had before', same, 'of 25')
