package io.tern.bench.origin.playlist;

import java.util.List;

/**
 * A multivariant playlist: the variants and their audio renditions.
 *
 * @param variants EXT-X-STREAM-INF entries in order
 * @param audio EXT-X-MEDIA TYPE=AUDIO entries that have a URI (separate audio playlists)
 */
public record MultivariantPlaylist(List<Variant> variants, List<AudioRendition> audio) implements Playlist {

    public record Variant(long bandwidth, String codecs, String audioGroup, String uri) {}

    public record AudioRendition(String groupId, String name, boolean isDefault, String uri) {}

    /**
     * The media playlists a player of the first variant loads: the variant, then its audio group's
     * default rendition (else the group's first) when that has its own playlist.
     */
    public List<String> playlistsOfFirstVariant() {
        if (variants.isEmpty()) {
            return List.of();
        }
        Variant v = variants.get(0);
        if (v.audioGroup() == null) {
            return List.of(v.uri());
        }
        AudioRendition chosen = null;
        for (AudioRendition a : audio) {
            if (a.groupId().equals(v.audioGroup()) && (chosen == null || (a.isDefault() && !chosen.isDefault()))) {
                chosen = a;
            }
        }
        return chosen == null ? List.of(v.uri()) : List.of(v.uri(), chosen.uri());
    }
}
