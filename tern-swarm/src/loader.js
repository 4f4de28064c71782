// The hls.js seam (src/types/loader.ts): an fLoader for parts, segments and init segments that asks
// the swarm runtime, and a pLoader tap that hands every media playlist to the runtime. The fLoader
// reports the object's real transfer times in stats.loading (ABR reads them), honours abort(), and
// only ever hands hls.js bytes that came from the origin or passed verification.

function emptyStats() {
  return {
    aborted: false,
    loaded: 0,
    retry: 0,
    total: 0,
    chunkCount: 0,
    bwEstimate: 0,
    loading: { start: 0, first: 0, end: 0 },
    parsing: { start: 0, end: 0 },
    buffering: { start: 0, first: 0, end: 0 },
  };
}

/** The swarm object a loader context names, or null when it is not one (byte ranges, keys). */
export function refOf(context, renditionOf) {
  const frag = context.frag;
  if (!frag || (context.rangeEnd ?? 0) > 0 || !frag.baseurl) return null;
  const rendition = renditionOf(frag.baseurl);
  if (frag.sn === 'initSegment') return { rendition, kind: 'init', msn: -1, part: -1 };
  if (!Number.isInteger(frag.sn)) return null;
  if (context.part) return { rendition, kind: 'part', msn: frag.sn, part: context.part.index };
  return { rendition, kind: 'segment', msn: frag.sn, part: -1 };
}

/**
 * When the playhead will need the next object: the end of what is buffered ahead of it, or, before
 * playback starts, startupBudgetMs from now.
 */
export function needByMs(nowMs, media, startupBudgetMs) {
  if (!media || media.paused || media.buffered.length === 0) return nowMs + startupBudgetMs;
  const end = media.buffered.end(media.buffered.length - 1);
  const aheadMs = (Math.max(0, end - media.currentTime) * 1000) / (media.playbackRate || 1);
  return nowMs + aheadMs;
}

/**
 * The fLoader class for hls.js. runtime: {load, abort, now}; renditionOf(playlistUrl);
 * media(): the media element or null; startupBudgetMs: the deadline before playback starts.
 */
export function createFragmentLoader({ runtime, renditionOf, media, startupBudgetMs = 1000 }) {
  return class TernSwarmFragmentLoader {
    constructor() {
      this.stats = emptyStats();
      this.context = null;
      this.callbacks = null;
      this.loadId = 0;
    }

    load(context, config, callbacks) {
      this.context = context;
      this.callbacks = callbacks;
      this.stats = emptyStats();
      const nowMs = runtime.now();
      this.stats.loading.start = nowMs;
      const ref = refOf(context, renditionOf);
      const done = (result) => this.finish(result);
      if (!ref) {
        this.loadId = 0;
        runtime.fetchDirect(context.url, context, done);
        return;
      }
      this.loadId = runtime.load(ref, context.url, needByMs(nowMs, media(), startupBudgetMs), done);
    }

    finish(result) {
      const { callbacks, context, stats } = this;
      if (!callbacks) return;
      this.callbacks = null;
      if (result.type === 'fail') {
        stats.loading.end = runtime.now();
        callbacks.onError({ code: result.status ?? 0, text: 'tern-swarm: HTTP fetch failed' }, context, null, stats);
        return;
      }
      const { bytes } = result;
      // The real transfer: from its request to its last byte, whenever that was (a prefetch may
      // have finished before hls.js asked). An instant "cache hit" would read as ~800 Mbit/s to ABR.
      stats.loading.start = result.stats.startMs;
      stats.loading.first = Math.max(result.stats.startMs, result.stats.firstMs);
      stats.loading.end = Math.max(stats.loading.first, result.stats.endMs);
      stats.loaded = stats.total = bytes.length;
      stats.chunkCount = 1;
      // A copy: hls.js may transfer the buffer to its worker, and the swarm keeps serving the original.
      callbacks.onSuccess({ url: context.url, data: bytes.slice().buffer }, stats, context, null);
    }

    abort() {
      if (!this.callbacks) return;
      const { callbacks, context, stats } = this;
      this.callbacks = null;
      stats.aborted = true;
      if (this.loadId) runtime.abort(this.loadId);
      callbacks.onAbort?.(stats, context, null);
    }

    destroy() {
      if (this.callbacks && this.loadId) runtime.abort(this.loadId);
      this.callbacks = null;
      this.context = null;
    }
  };
}

/** A pLoader: hls.js's own playlist loader, with every media playlist's text passed to onPlaylist(url, text). */
export function tapPlaylists(BaseLoader, onPlaylist) {
  return class TernSwarmPlaylistLoader extends BaseLoader {
    load(context, config, callbacks) {
      const onSuccess = callbacks.onSuccess;
      super.load(context, config, {
        ...callbacks,
        onSuccess: (response, stats, ctx, details) => {
          if (typeof response.data === 'string') {
            try {
              onPlaylist(response.url || ctx.url, response.data);
            } catch (error) {
              console.warn('tern-swarm: playlist', error);
            }
          }
          onSuccess(response, stats, ctx, details);
        },
      });
    }
  };
}
