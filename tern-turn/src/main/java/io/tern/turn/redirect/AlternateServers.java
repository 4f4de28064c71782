package io.tern.turn.redirect;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where new Allocates are sent instead (RFC 8489 §10, 300 Try Alternate with ALTERNATE-SERVER): a
 * list of alternate servers per client transport and address family, and when to send clients
 * there. Immutable: the adapter builds a new one when the alternates change and hands it to the
 * engines through {@link Alternates}.
 *
 * <p>{@link Mode#ALWAYS} is coturn's {@code alternate-server} behaviour: every Allocate is
 * redirected, round robin over the list. {@link Mode#WHILE_DRAINING} redirects only while the node
 * drains (a fleet registry's live nodes).
 */
public final class AlternateServers {
    /** When Allocates are redirected. */
    public enum Mode {
        /** Every Allocate, as coturn's static alternate servers do (load balancing). */
        ALWAYS,
        /** Only while this node drains: new clients go elsewhere, existing ones stay. */
        WHILE_DRAINING
    }

    private static final TransportAddress[] EMPTY = new TransportAddress[0];

    public static final AlternateServers NONE = new AlternateServers(Mode.WHILE_DRAINING, new TransportAddress[6][]);

    private final Mode mode;
    /** By {@code transport.ordinal() * 2 + (ipv6 ? 1 : 0)}; the addresses are copies nobody else holds. */
    private final TransportAddress[][] lists;

    private AlternateServers(Mode mode, TransportAddress[][] lists) {
        this.mode = mode;
        this.lists = lists;
        for (int i = 0; i < lists.length; i++) {
            if (lists[i] == null) {
                lists[i] = EMPTY;
            }
        }
    }

    public static Builder builder(Mode mode) {
        return new Builder(mode);
    }

    public Mode mode() {
        return mode;
    }

    /** Whether an Allocate is redirected now, given the drain flag, provided an alternate of its family exists. */
    public boolean redirects(boolean draining) {
        return mode == Mode.ALWAYS || draining;
    }

    /** Alternates for clients on {@code transport} whose address is of this family. */
    public int count(TransportProtocol transport, boolean ipv6) {
        return lists[index(transport, ipv6)].length;
    }

    /** The {@code i}th alternate; the engine only reads it (it writes it into an answer). */
    public TransportAddress get(TransportProtocol transport, boolean ipv6, int i) {
        return lists[index(transport, ipv6)][i];
    }

    public boolean isEmpty() {
        for (TransportAddress[] list : lists) {
            if (list.length > 0) {
                return false;
            }
        }
        return true;
    }

    private static int index(TransportProtocol transport, boolean ipv6) {
        return transport.ordinal() * 2 + (ipv6 ? 1 : 0);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(mode.name());
        for (TransportProtocol transport : TransportProtocol.values()) {
            for (boolean ipv6 : new boolean[] {false, true}) {
                TransportAddress[] list = lists[index(transport, ipv6)];
                if (list.length > 0) {
                    s.append(' ').append(transport).append('=').append(List.of(list));
                }
            }
        }
        return s.toString();
    }

    /** Collects alternates per transport; repeats are kept (coturn's way of weighting a server). */
    public static final class Builder {
        private final Mode mode;
        private final List<List<TransportAddress>> lists = new ArrayList<>();

        private Builder(Mode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            for (int i = 0; i < 6; i++) {
                lists.add(new ArrayList<>());
            }
        }

        /** Adds {@code alternate} for clients on {@code transport}; its family picks the clients it serves. */
        public Builder add(TransportProtocol transport, TransportAddress alternate) {
            lists.get(index(transport, !alternate.isIpv4())).add(alternate.copy());
            return this;
        }

        public AlternateServers build() {
            TransportAddress[][] arrays = new TransportAddress[6][];
            for (int i = 0; i < 6; i++) {
                arrays[i] = lists.get(i).toArray(EMPTY);
            }
            return new AlternateServers(mode, arrays);
        }
    }
}
