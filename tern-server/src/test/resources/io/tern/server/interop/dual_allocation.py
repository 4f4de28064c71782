#!/usr/bin/env python3
"""A TURN client written from RFC 8489/8656 alone, independent of Tern's codec: one Allocate with
ADDITIONAL-ADDRESS-FAMILY=IPv6 (RFC 8656 section 7.2, attribute 0x8000) and TURN REST
credentials. Prints one line 'relayed <ip> <port>' per XOR-RELAYED-ADDRESS of the answer, or
'error <code>' and exits 1.

usage: dual_allocation.py SERVER_IP PORT SECRET
"""
import base64
import hashlib
import hmac
import ipaddress
import os
import socket
import struct
import sys
import time

MAGIC = 0x2112A442
ALLOCATE_REQUEST, ALLOCATE_SUCCESS, ALLOCATE_ERROR = 0x0003, 0x0103, 0x0113
USERNAME, MESSAGE_INTEGRITY, ERROR_CODE, REALM, NONCE = 0x0006, 0x0008, 0x0009, 0x0014, 0x0015
XOR_RELAYED_ADDRESS, REQUESTED_TRANSPORT, ADDITIONAL_ADDRESS_FAMILY = 0x0016, 0x0019, 0x8000


def attribute(kind, value):
    return struct.pack("!HH", kind, len(value)) + value + b"\0" * (-len(value) % 4)


def message(kind, tid, attributes, key=None):
    body = b"".join(attributes)
    if key is None:
        return struct.pack("!HHI", kind, len(body), MAGIC) + tid + body
    # RFC 8489 section 14.5: the length counts MESSAGE-INTEGRITY, the HMAC covers what precedes it.
    head = struct.pack("!HHI", kind, len(body) + 24, MAGIC) + tid
    mac = hmac.new(key, head + body, hashlib.sha1).digest()
    return head + body + attribute(MESSAGE_INTEGRITY, mac)


def parse(data):
    kind, length, _ = struct.unpack("!HHI", data[:8])
    tid, attributes, i = data[8:20], [], 20
    while i + 4 <= 20 + length:
        a, n = struct.unpack("!HH", data[i:i + 4])
        attributes.append((a, data[i + 4:i + 4 + n]))
        i += 4 + n + (-n % 4)
    return kind, tid, attributes


def xor_address(value, tid):
    family, port = value[1], struct.unpack("!H", value[2:4])[0] ^ (MAGIC >> 16)
    mask = struct.pack("!I", MAGIC) + (tid if family == 2 else b"")
    raw = bytes(b ^ m for b, m in zip(value[4:], mask))
    return ipaddress.ip_address(raw), port


def main():
    host, port, secret = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
    server = (host, port)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(5)
    asked = [attribute(REQUESTED_TRANSPORT, b"\x11\0\0\0"), attribute(ADDITIONAL_ADDRESS_FAMILY, b"\x02\0\0\0")]

    tid = os.urandom(12)
    sock.sendto(message(ALLOCATE_REQUEST, tid, asked), server)
    kind, _, attributes = parse(sock.recv(2048))
    values = dict(attributes)
    if kind != ALLOCATE_ERROR or REALM not in values or NONCE not in values:
        print("error no 401 challenge")
        return 1

    # TURN REST API: username "<expiry>:<user>", password base64(HMAC-SHA1(secret, username)).
    username = ("%d:probe" % (time.time() + 3600)).encode()
    password = base64.b64encode(hmac.new(secret, username, hashlib.sha1).digest())
    key = hashlib.md5(username + b":" + values[REALM] + b":" + password).digest()
    credentials = [attribute(USERNAME, username), attribute(REALM, values[REALM]), attribute(NONCE, values[NONCE])]
    tid = os.urandom(12)
    sock.sendto(message(ALLOCATE_REQUEST, tid, asked + credentials, key), server)
    kind, _, attributes = parse(sock.recv(2048))
    if kind != ALLOCATE_SUCCESS:
        code = dict(attributes).get(ERROR_CODE, b"\0\0\0\0")
        print("error %d" % ((code[2] & 7) * 100 + code[3]))
        return 1
    for a, value in attributes:
        if a == XOR_RELAYED_ADDRESS:
            ip, relayed_port = xor_address(value, tid)
            print("relayed %s %d" % (ip, relayed_port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
