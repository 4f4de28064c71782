package io.tern.netty.hls;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.SharedBody;

/**
 * Answers sent from the stream's loop to an exchange of any loop. Each answer runs on the
 * exchange's own loop and only if the exchange is still open, so an answer that arrives after its
 * client left (or after the server's own timeout answered) is dropped rather than sent twice.
 */
public final class Replies {
    private Replies() {}

    /** 200 with a shared body (a playlist version, a complete object). */
    static void shared(HttpExchange exchange, String kind, SharedBody body, CacheControl cache) {
        if (exchange.eventLoop().inEventLoop()) {
            if (exchange.isOpen()) {
                exchange.kind(kind).respond(body, cache);
            }
            return;
        }
        // This loop may release the body (its playlist version replaced) before the exchange's
        // loop answers, so the hand-off holds a reference of its own.
        body.retain();
        exchange.eventLoop().execute(() -> {
            try {
                if (exchange.isOpen()) {
                    exchange.kind(kind).respond(body, cache);
                }
            } finally {
                body.release();
            }
        });
    }

    /** 200 with {@code body}, which is released by the server (or here, if the exchange is over). */
    static void owned(HttpExchange exchange, String kind, CharSequence contentType, ByteBuf body, CacheControl cache) {
        if (exchange.eventLoop().inEventLoop()) {
            if (exchange.isOpen()) {
                exchange.kind(kind)
                        .reply(HttpResponseStatus.OK)
                        .contentType(contentType)
                        .cache(cache)
                        .send(body);
            } else {
                body.release();
            }
            return;
        }
        exchange.eventLoop().execute(() -> owned(exchange, kind, contentType, body, cache));
    }

    /** An error status with its reason as the body; never cached. */
    public static void error(HttpExchange exchange, int status, String reason) {
        onExchangeLoop(
                exchange,
                () -> exchange.reply(HttpResponseStatus.valueOf(status))
                        .cache(CacheControl.noStore())
                        .send(status + " " + reason + "\n"));
    }

    private static void onExchangeLoop(HttpExchange exchange, Runnable answer) {
        if (exchange.eventLoop().inEventLoop()) {
            if (exchange.isOpen()) {
                answer.run();
            }
        } else {
            exchange.eventLoop().execute(() -> {
                if (exchange.isOpen()) {
                    answer.run();
                }
            });
        }
    }
}
