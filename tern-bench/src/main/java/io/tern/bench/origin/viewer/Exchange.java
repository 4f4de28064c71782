package io.tern.bench.origin.viewer;

/**
 * The request slot of one of a viewer's connections. HTTP/1.1 without pipelining carries one
 * request at a time, so each connection has exactly one slot, reused for every request: the
 * viewer fills it ({@link State#READY}), the adapter writes it and marks it sent, and the answer
 * comes back to the viewer naming the slot. Nothing is allocated per request.
 */
public final class Exchange {
    /** Two renditions at most (the variant and its audio), two connections each. */
    public static final int MAX_CONNECTIONS = 4;

    /** The connection that carries rendition {@code rendition}'s playlist (0 also the entry playlist). */
    public static int playlistConnection(int rendition) {
        return 2 * rendition;
    }

    /** The connection that carries rendition {@code rendition}'s init segment, segments and parts. */
    public static int mediaConnection(int rendition) {
        return 2 * rendition + 1;
    }

    public enum State {
        IDLE,
        READY,
        IN_FLIGHT
    }

    private final int connection;
    private State state = State.IDLE;
    private RequestKind kind;
    private int rendition;
    private String path;
    private long msn;
    private int part;
    private SkipMode skip = SkipMode.NONE;
    private long sentNs;

    Exchange(int connection) {
        this.connection = connection;
    }

    void prepare(RequestKind kind, int rendition, String path, long msn, int part, SkipMode skip) {
        this.kind = kind;
        this.rendition = rendition;
        this.path = path;
        this.msn = msn;
        this.part = part;
        this.skip = skip;
        this.state = State.READY;
    }

    /** The adapter wrote the request at {@code nowNs}. */
    public void sent(long nowNs) {
        if (state != State.READY) {
            throw new IllegalStateException("exchange " + connection + " sent while " + state);
        }
        state = State.IN_FLIGHT;
        sentNs = nowNs;
    }

    void finish() {
        state = State.IDLE;
    }

    public int connection() {
        return connection;
    }

    public State state() {
        return state;
    }

    public RequestKind kind() {
        return kind;
    }

    /** Index of the viewer's rendition this request belongs to (0 = the variant, 1 = its audio). */
    public int rendition() {
        return rendition;
    }

    /** Request path, without the blocking directives. */
    public String path() {
        return path;
    }

    /** Media sequence number: the item's, or the {@code _HLS_msn} of a blocking reload. */
    public long msn() {
        return msn;
    }

    /** Part index: the item's, or the {@code _HLS_part} of a blocking reload. */
    public int part() {
        return part;
    }

    public SkipMode skip() {
        return skip;
    }

    public long sentNs() {
        return sentNs;
    }

    /** True when the request carries {@code _HLS_msn}/{@code _HLS_part}. */
    public boolean blocking() {
        return kind == RequestKind.BLOCKING_PLAYLIST;
    }
}
