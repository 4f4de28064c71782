import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseListing, renditionOf } from '../src/playlist.js';
import { attestLine, makeOrigin } from './origin-fixture.js';

test('the rendition is the playlist name in the URL', () => {
  assert.equal(renditionOf('https://h/live/cam/video.m3u8?_HLS_msn=5&_HLS_part=1'), 'video');
  assert.equal(renditionOf('/live/cam/audio.m3u8'), 'audio');
});

test('each attestation is paired with the URI of its init segment, segment or part', async () => {
  const origin = await makeOrigin();
  const bytes = new Uint8Array(10);
  const init = await origin.attest('video', { kind: 'init', msn: -1, part: -1 }, bytes);
  const seg = await origin.attest('video', { kind: 'segment', msn: 4, part: -1 }, bytes);
  const p0 = await origin.attest('video', { kind: 'part', msn: 5, part: 0 }, bytes);
  const p1 = await origin.attest('video', { kind: 'part', msn: 5, part: 1 }, bytes);
  const s = origin.sessions[0];
  const text = [
    '#EXTM3U',
    `#EXT-X-TERN-SWARM-SESSION:KEY="${s.key}",NOT-AFTER=${s.notAfter},ENDORSEMENT="${s.endorsement}"`,
    '#EXT-X-MAP:URI="video-init-0.mp4"',
    attestLine(init),
    '#EXT-X-PART:DURATION=0.5,URI="video-p16.m4s"',
    '#EXTINF:2.0,',
    attestLine(seg),
    'video-4.m4s',
    attestLine(p0),
    '#EXT-X-PART:DURATION=0.5,URI="video-p20.m4s",INDEPENDENT=YES',
    attestLine(p1),
    '#EXT-X-PART:DURATION=0.5,URI="video-p21.m4s"',
    '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="video-p22.m4s"',
  ].join('\n');
  const parsed = parseListing(text, 'http://origin/live/cam/video.m3u8?_HLS_msn=5');
  assert.equal(parsed.sessions.length, 1);
  assert.deepEqual(
    parsed.listing.map((i) => [i.ref.kind, i.ref.msn, i.ref.part, i.url]),
    [
      ['init', -1, -1, 'http://origin/live/cam/video-init-0.mp4'],
      ['segment', 4, -1, 'http://origin/live/cam/video-4.m4s'],
      ['part', 5, 0, 'http://origin/live/cam/video-p20.m4s'],
      ['part', 5, 1, 'http://origin/live/cam/video-p21.m4s'],
    ],
  );
  assert.deepEqual(parsed.listing[2].attestation, p0);
});

test('a playlist without swarm tags lists nothing', () => {
  assert.deepEqual(parseListing('#EXTM3U\n#EXTINF:2,\nv-1.m4s\n', 'http://o/v.m3u8').listing, []);
});
