package io.tern.netty.rtmp;

/** The answer to one publish request; the first call wins, later ones are ignored. Thread-safe. */
public interface PublishReply {
    void accept();

    /** Refuses with NetStream.Publish.BadName and {@code description}, which the publisher shows. */
    void refuse(String description);
}
