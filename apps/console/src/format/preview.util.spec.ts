import { mediaPreviews } from './preview.util';

const ORIGIN = 'http://127.0.0.1:8080';

describe('task previews', () => {
  it('finds a video URL on the detail and keeps it relative', () => {
    expect(mediaPreviews({ previewUrl: `${ORIGIN}/files/abc?sig=1` }, 'video', ORIGIN)).toEqual([
      { url: '/files/abc?sig=1', kind: 'video' },
    ]);
  });

  it('reads output lists with their content types', () => {
    const detail = {
      outputs: [{ url: '/files/a.bin', contentType: 'audio/mpeg' }, { url: '/files/b.png' }, '/files/a.bin'],
    };
    expect(mediaPreviews(detail, 'video', ORIGIN)).toEqual([
      { url: '/files/a.bin', kind: 'audio' },
      { url: '/files/b.png', kind: 'image' },
    ]);
  });

  it('falls back to the task kind when nothing else tells', () => {
    expect(mediaPreviews({ contentUrl: '/x/1' }, 'music', ORIGIN)).toEqual([{ url: '/x/1', kind: 'audio' }]);
  });

  it('never offers another origin, protocol-relative URLs or non-URLs', () => {
    const detail = {
      previewUrl: 'https://upstream.example/v.mp4',
      contentUrl: '//evil.example/v.mp4',
      resultUrl: 'javascript:alert(1)',
    };
    expect(mediaPreviews(detail, 'video', ORIGIN)).toEqual([]);
  });

  it('ignores fields it does not know, such as the upstream handle', () => {
    expect(mediaPreviews({ upstreamHandle: { url: '/files/z' } }, 'video', ORIGIN)).toEqual([]);
  });
});
