"""python-websockets peer for tern-websocket interop tests.

  ws_peer.py server [--compression]     echo server on 127.0.0.1, prints "PORT <n>" once listening
  ws_peer.py client URL [--compression] exchanges text, binary, fragmented and large messages with an
                                        echo server; prints "OK <extensions>" and exits 0 when all match
"""
import asyncio
import os
import sys

import websockets


async def serve(compression):
    async def echo(ws, path=None):
        async for message in ws:
            await ws.send(message)

    async with websockets.serve(echo, "127.0.0.1", 0, compression=compression, max_size=None) as server:
        print("PORT", server.sockets[0].getsockname()[1], flush=True)
        # Runs until the test closes our stdin.
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


async def client(url, compression):
    async with websockets.connect(url, compression=compression, max_size=None) as ws:
        large = os.urandom(1 << 20)
        text = "Grüße, κόσμε, 日本 " * 1000
        for message in ["hello", "", text, b"\x00\x01\xfe\xff", large]:
            await ws.send(message)
            echoed = await ws.recv()
            if echoed != message:
                raise SystemExit("mismatch for a %s of %d" % (type(message).__name__, len(message)))
        await ws.send(["frag", "mented ", "text"])
        if await ws.recv() != "fragmented text":
            raise SystemExit("fragmented message mismatch")
        pong = await ws.ping(b"tern")
        await asyncio.wait_for(pong, 5)
        extensions = ",".join(e.name for e in ws.extensions) or "none"
    if ws.close_code != 1000:
        raise SystemExit("close code %s" % ws.close_code)
    print("OK", extensions, flush=True)


def main():
    compression = "deflate" if "--compression" in sys.argv else None
    if sys.argv[1] == "server":
        asyncio.run(serve(compression))
    else:
        asyncio.run(client(sys.argv[2], compression))


if __name__ == "__main__":
    main()
