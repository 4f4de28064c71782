package io.tern.server.origin.registry;

/** The registry's answer to a publish request. */
public sealed interface PublishOutcome {
    /** Publish: feed {@code input}. */
    record Accepted(StreamInput input, String instanceId) implements PublishOutcome {}

    /** Refused with {@code reason}, which the publisher is told and the log shows. */
    record Refused(String reason) implements PublishOutcome {}
}
