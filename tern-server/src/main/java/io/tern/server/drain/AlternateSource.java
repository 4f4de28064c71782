package io.tern.server.drain;

import io.tern.turn.redirect.AlternateServers;

/**
 * Where this node sends new Allocates (300 Try Alternate): the seam between the relay and whatever
 * knows the other nodes. {@link StaticAlternates} reads coturn's {@code alternate-server} options; a
 * fleet registry (Redis) implements it from its view of the live nodes, answering
 * {@link AlternateServers.Mode#WHILE_DRAINING} lists of nodes that are not draining themselves.
 *
 * <p>The relay asks when it starts, when it starts draining, and about once a second after that,
 * from a timer thread: an implementation answers from what it already holds and never blocks on
 * the network. The engines only ever see the last answer.
 */
@FunctionalInterface
public interface AlternateSource {
    /** The alternates now; {@link AlternateServers#NONE} when there are none. */
    AlternateServers alternates();
}
