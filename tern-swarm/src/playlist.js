// From a media playlist's text to the scheduler's listing: each attested object with its URL, in
// playlist order. Pure; the pLoader tap in loader.js feeds it every media playlist hls.js loads.
import { parseAttributes, parsePlaylist } from './verify.js';

/** The rendition of a media playlist URL, as the origin names it in its URIs: ".../video.m3u8" -> "video". */
export function renditionOf(playlistUrl) {
  const path = new URL(playlistUrl, 'http://x/').pathname;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.m3u8') ? name.slice(0, -'.m3u8'.length) : name;
}

/**
 * {rendition, sessions, listing: [{ref, url, attestation}]}: an attestation belongs to the
 * #EXT-X-MAP before it (init), the #EXT-X-PART after it (part) or the URI line after it (segment).
 */
export function parseListing(text, playlistUrl) {
  const rendition = renditionOf(playlistUrl);
  const { sessions, attestations } = parsePlaylist(text);
  const listing = [];
  if (attestations.size === 0) return { rendition, sessions, listing };
  let mapUri = null;
  let pending = null;
  const add = (attestation, uri) => {
    const { kind, msn, part } = attestation;
    listing.push({ ref: { rendition, kind, msn, part }, url: new URL(uri, playlistUrl).href, attestation });
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#EXT-X-MAP:')) {
      mapUri = parseAttributes(line.slice('#EXT-X-MAP:'.length))?.URI ?? null;
    } else if (line.startsWith('#EXT-X-TERN-ATTEST:')) {
      const attributes = parseAttributes(line.slice('#EXT-X-TERN-ATTEST:'.length));
      pending = attributes && attestations.get(`${attributes.KIND}/${attributes.MSN}/${attributes.PART}`);
      if (pending?.kind === 'init') {
        if (mapUri) add(pending, mapUri);
        pending = null;
      }
    } else if (line.startsWith('#EXT-X-PART:')) {
      const uri = parseAttributes(line.slice('#EXT-X-PART:'.length))?.URI;
      if (pending?.kind === 'part' && uri) add(pending, uri);
      pending = null;
    } else if (line.length > 0 && !line.startsWith('#')) {
      if (pending?.kind === 'segment') add(pending, line.trim());
      pending = null;
    }
  }
  return { rendition, sessions, listing };
}
