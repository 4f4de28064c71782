package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The engine's outputs between two drains: commands in arrays of primitives (nothing is allocated
 * per command once the arrays have grown to a turn's working size) and an arena of direct memory
 * for the messages the engine writes itself. The transport drains it with {@link #poll()}; when
 * that returns null the queue and the arena start over.
 *
 * <p>The writing methods are for the engine and its method handlers only.
 */
public final class CommandQueue {
    private static final int INITIAL_COMMANDS = 64;

    int[] kinds = new int[INITIAL_COMMANDS];
    ClientEndpoint[] clients = new ClientEndpoint[INITIAL_COMMANDS];
    int[] relayIds = new int[INITIAL_COMMANDS];
    /** The parent relay of CONNECT_PEER, the relay protocol of OPEN_RELAY, the shard of MIGRATE_CONNECTION. */
    int[] aux = new int[INITIAL_COMMANDS];

    long[] leaseIds = new long[INITIAL_COMMANDS];
    String[] users = new String[INITIAL_COMMANDS];

    TransportAddress[] addresses = new TransportAddress[INITIAL_COMMANDS];
    DirectBuffer[] buffers = new DirectBuffer[INITIAL_COMMANDS];
    int[] offsets = new int[INITIAL_COMMANDS];
    int[] lengths = new int[INITIAL_COMMANDS];
    boolean[] inPlace = new boolean[INITIAL_COMMANDS];

    private final Command view = new Command(this);
    private UnsafeBuffer arena;
    private int arenaUsed;
    private int head;
    private int tail;

    /** @param arenaBytes initial arena size; it grows if one drain's messages need more */
    public CommandQueue(int arenaBytes) {
        this.arena = new UnsafeBuffer(ByteBuffer.allocateDirect(arenaBytes));
        for (int i = 0; i < INITIAL_COMMANDS; i++) {
            clients[i] = new ClientEndpoint();
            addresses[i] = new TransportAddress();
        }
    }

    /** The next command, or null when drained (the queue and arena then start over). */
    public Command poll() {
        if (head == tail) {
            clear();
            return null;
        }
        return view.at(head++);
    }

    public boolean isEmpty() {
        return head == tail;
    }

    /** Commands not yet polled. */
    public int size() {
        return tail - head;
    }

    private void clear() {
        for (int i = 0; i < tail; i++) {
            buffers[i] = null;
            users[i] = null;
        }
        head = 0;
        tail = 0;
        arenaUsed = 0;
    }

    // ---------------------------------------------------------------------------------------------
    // Writing (engine side)

    /** The arena, for writing a message at {@link #reserve(int)}'s offset. */
    public MutableDirectBuffer arena() {
        return arena;
    }

    /** Makes room for a message of up to {@code maxBytes} and returns its offset in {@link #arena()}. */
    public int reserve(int maxBytes) {
        if (arenaUsed + maxBytes > arena.capacity()) {
            grow(arenaUsed + maxBytes);
        }
        return arenaUsed;
    }

    /** A message of {@code length} bytes just written at {@link #reserve}'s offset, for a client. */
    public void sendToClient(ClientEndpoint client, int length) {
        sendToClient(client, arena, arenaUsed, length, false);
        arenaUsed += (length + 7) & ~7;
    }

    public void sendToClient(ClientEndpoint client, DirectBuffer buffer, int offset, int length, boolean inPlace) {
        int s = add(Command.SEND_TO_CLIENT);
        clients[s].set(client);
        bytes(s, buffer, offset, length, inPlace);
    }

    public void sendToPeer(
            int relayId, TransportAddress peer, DirectBuffer buffer, int offset, int length, boolean inPlace) {
        int s = add(Command.SEND_TO_PEER);
        relayIds[s] = relayId;
        addresses[s].set(peer);
        bytes(s, buffer, offset, length, inPlace);
    }

    public void openRelay(int relayId, TransportAddress bindAddress, int relayProtocol) {
        int s = add(Command.OPEN_RELAY);
        relayIds[s] = relayId;
        addresses[s].set(bindAddress);
        aux[s] = relayProtocol;
    }

    public void closeRelay(int relayId) {
        // add() first, then the array: `relayIds[add(..)] = ..` would take the array before add()
        // grows it, and the 65th close of one drain (a mass expiry, a shutdown) wrote past its end.
        int s = add(Command.CLOSE_RELAY);
        relayIds[s] = relayId;
    }

    public void connectPeer(int relayId, int parentRelayId, TransportAddress peer) {
        int s = add(Command.CONNECT_PEER);
        relayIds[s] = relayId;
        aux[s] = parentRelayId;
        addresses[s].set(peer);
    }

    public void bindConnection(ClientEndpoint dataConnection, int relayId) {
        int s = add(Command.BIND_CONNECTION);
        clients[s].set(dataConnection);
        relayIds[s] = relayId;
    }

    public void migrateConnection(
            ClientEndpoint connection, int targetShard, DirectBuffer message, int offset, int length) {
        int s = add(Command.MIGRATE_CONNECTION);
        clients[s].set(connection);
        aux[s] = targetShard;
        bytes(s, message, offset, length, true);
    }

    public void acquireLease(long leaseId, String user) {
        int s = add(Command.ACQUIRE_LEASE);
        leaseIds[s] = leaseId;
        users[s] = user;
    }

    public void releaseLease(long leaseId, String user) {
        int s = add(Command.RELEASE_LEASE);
        leaseIds[s] = leaseId;
        users[s] = user;
    }

    private void bytes(int s, DirectBuffer buffer, int offset, int length, boolean inPlaceBytes) {
        buffers[s] = buffer;
        offsets[s] = offset;
        lengths[s] = length;
        inPlace[s] = inPlaceBytes;
    }

    private int add(int kind) {
        if (tail == kinds.length) {
            growCommands();
        }
        int s = tail++;
        kinds[s] = kind;
        buffers[s] = null;
        lengths[s] = 0;
        inPlace[s] = false;
        return s;
    }

    private void growCommands() {
        int n = kinds.length * 2;
        kinds = Arrays.copyOf(kinds, n);
        relayIds = Arrays.copyOf(relayIds, n);
        aux = Arrays.copyOf(aux, n);
        buffers = Arrays.copyOf(buffers, n);
        offsets = Arrays.copyOf(offsets, n);
        lengths = Arrays.copyOf(lengths, n);
        inPlace = Arrays.copyOf(inPlace, n);
        leaseIds = Arrays.copyOf(leaseIds, n);
        users = Arrays.copyOf(users, n);
        int old = clients.length;
        clients = Arrays.copyOf(clients, n);
        addresses = Arrays.copyOf(addresses, n);
        for (int i = old; i < n; i++) {
            clients[i] = new ClientEndpoint();
            addresses[i] = new TransportAddress();
        }
    }

    private void grow(int needed) {
        UnsafeBuffer old = arena;
        UnsafeBuffer bigger = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(needed, old.capacity() * 2)));
        bigger.putBytes(0, old, 0, arenaUsed);
        for (int i = head; i < tail; i++) {
            if (buffers[i] == old) {
                buffers[i] = bigger;
            }
        }
        arena = bigger;
    }
}
