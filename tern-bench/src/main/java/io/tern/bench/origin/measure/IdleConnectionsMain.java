package io.tern.bench.origin.measure;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Opens {@code count} keep-alive HTTP/1.1 connections to a server, sends one GET on each, reads its
 * answer and leaves the connection open and idle: what a server keeps per idle viewer connection,
 * for a heap histogram or NMT taken meanwhile (bench/origin-idle). Prints {@code ready N} once
 * every answer is in, then keeps the connections until its standard input closes.
 *
 * <pre>
 * java -cp tern-bench.jar io.tern.bench.origin.measure.IdleConnectionsMain HOST PORT COUNT PATH
 * </pre>
 *
 * One thread, non-blocking: at most {@link #CONNECTING_AT_ONCE} connections are being opened at a
 * time, so 16,000 open in a few seconds, well inside the server's idle timeout.
 */
public final class IdleConnectionsMain {
    private static final int CONNECTING_AT_ONCE = 256;
    private static final long OPEN_TIMEOUT_MS = 120_000;

    private IdleConnectionsMain() {}

    /** One connection's answer, read until its headers end and its Content-Length of body is in. */
    private static final class Answer {
        private final StringBuilder head = new StringBuilder();
        private long bodyLeft = -1;

        /** Takes {@code bytes}; true once the answer is complete. */
        boolean take(ByteBuffer bytes) {
            while (bytes.hasRemaining()) {
                if (bodyLeft >= 0) {
                    int skipped = (int) Math.min(bodyLeft, bytes.remaining());
                    bytes.position(bytes.position() + skipped);
                    bodyLeft -= skipped;
                } else {
                    head.append((char) (bytes.get() & 0xff));
                    if (head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
                        bodyLeft = contentLength(head.toString());
                    }
                }
            }
            return bodyLeft == 0;
        }

        String statusLine() {
            int end = head.indexOf("\r\n");
            return end < 0 ? head.toString() : head.substring(0, end);
        }

        private static long contentLength(String head) {
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    return Long.parseLong(
                            line.substring("content-length:".length()).trim());
                }
            }
            return 0;
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: IdleConnectionsMain HOST PORT COUNT PATH");
            System.exit(2);
        }
        InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        byte[] request = ("GET " + args[3] + " HTTP/1.1\r\nHost: " + args[0]
                        + "\r\nUser-Agent: idle-connections\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        List<SocketChannel> open = new ArrayList<>(count);
        ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
        String firstStatus = null;
        long deadlineMs = System.currentTimeMillis() + OPEN_TIMEOUT_MS;
        try (Selector selector = Selector.open()) {
            int started = 0;
            int answered = 0;
            int inFlight = 0;
            while (answered < count) {
                if (System.currentTimeMillis() > deadlineMs) {
                    throw new IOException(
                            "only " + answered + " of " + count + " answered in " + OPEN_TIMEOUT_MS + " ms");
                }
                while (inFlight < CONNECTING_AT_ONCE && started < count) {
                    SocketChannel channel = SocketChannel.open();
                    channel.configureBlocking(false);
                    channel.connect(server);
                    channel.register(selector, SelectionKey.OP_CONNECT, new Answer());
                    open.add(channel);
                    started++;
                    inFlight++;
                }
                selector.select(1000);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    SocketChannel channel = (SocketChannel) key.channel();
                    if (key.isConnectable()) {
                        channel.finishConnect();
                        // A small request on a fresh connection: the socket buffer takes it whole.
                        channel.write(ByteBuffer.wrap(request));
                        key.interestOps(SelectionKey.OP_READ);
                    } else if (key.isReadable()) {
                        readBuffer.clear();
                        if (channel.read(readBuffer) < 0) {
                            throw new IOException("the server closed connection " + open.indexOf(channel));
                        }
                        readBuffer.flip();
                        Answer answer = (Answer) key.attachment();
                        if (answer.take(readBuffer)) {
                            if (firstStatus == null) {
                                firstStatus = answer.statusLine();
                            }
                            key.interestOps(0);
                            key.attach(null);
                            answered++;
                            inFlight--;
                        }
                    }
                }
            }
            System.out.println("ready " + answered + " (first answer: " + firstStatus + ")");
            System.out.flush();
            // Idle until told to stop; the connections close with the process.
            while (System.in.read() >= 0) {
                // Nothing to read: this only waits for the end of the input.
            }
        } finally {
            for (SocketChannel channel : open) {
                channel.close();
            }
        }
    }
}
