package io.tern.bench.origin.playlist;

/** A parsed playlist: a media playlist or a multivariant playlist. */
public sealed interface Playlist permits MediaPlaylist, MultivariantPlaylist {}
