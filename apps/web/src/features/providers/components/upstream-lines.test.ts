import { describe, expect, it } from 'vitest';
import { formatUpstreamLines, parseUpstreamLines } from './upstream-lines';

describe('upstream lines', () => {
  it('reads URL[,country[,state[,city]]] per line, normalising codes and skipping blank lines', () => {
    const text = ['http://u:p@198.51.100.7:8000', '', '  socks5://u:p@us.example.net:1080 , us , CA ,LosAngeles ', 'http://u:p@de.example.net:8000,DE,,berlin'].join('\n');
    expect(parseUpstreamLines(text)).toEqual({
      ok: true,
      upstreams: [
        { url: 'http://u:p@198.51.100.7:8000', country: null, state: null, city: null },
        { url: 'socks5://u:p@us.example.net:1080', country: 'US', state: 'ca', city: 'losangeles' },
        { url: 'http://u:p@de.example.net:8000', country: 'DE', state: null, city: 'berlin' },
      ],
    });
  });

  it('keeps a comma inside the password as part of the URL, and takes masked passwords as they came', () => {
    expect(parseUpstreamLines('http://u:a,b@198.51.100.7:8000,US')).toEqual({ ok: true, upstreams: [{ url: 'http://u:a,b@198.51.100.7:8000', country: 'US', state: null, city: null }] });
    expect(parseUpstreamLines('http://user:****@gate.example.net:7000')).toMatchObject({ ok: true, upstreams: [{ url: 'http://user:****@gate.example.net:7000' }] });
  });

  it('names the first bad line by its number in the text, blank lines counted', () => {
    expect(parseUpstreamLines('http://u:p@198.51.100.7:8000\n\nftp://u:p@198.51.100.8:21')).toEqual({ ok: false, error: { line: 3, message: 'validation.upstreamUrl' } });
    expect(parseUpstreamLines('http://u:p@198.51.100.7')).toEqual({ ok: false, error: { line: 1, message: 'validation.upstreamUrl' } });
    expect(parseUpstreamLines('http://u:p@198.51.100.7:8000,USA')).toEqual({ ok: false, error: { line: 1, message: 'validation.country' } });
    expect(parseUpstreamLines('x\nhttp://u:p@198.51.100.7:8000,US,ca,la,extra')).toEqual({ ok: false, error: { line: 1, message: 'validation.upstreamUrl' } });
    expect(parseUpstreamLines('http://u:p@198.51.100.7:8000,US,ca,la,extra')).toEqual({ ok: false, error: { line: 1, message: 'providers.form.lineFields' } });
    expect(parseUpstreamLines('http://u:p@198.51.100.7:8000,US,new york')).toEqual({ ok: false, error: { line: 1, message: 'validation.regionCode' } });
  });

  it('writes the server’s upstreams back as lines that read the same, empty trailing fields left off', () => {
    const upstreams = [
      { url: 'http://user:****@198.51.100.7:8000', country: null, state: null, city: null },
      { url: 'socks5://user:****@us.example.net:1080', country: 'US', state: null, city: 'losangeles' },
    ];
    const text = formatUpstreamLines(upstreams);
    expect(text).toBe('http://user:****@198.51.100.7:8000\nsocks5://user:****@us.example.net:1080,US,,losangeles');
    expect(parseUpstreamLines(text)).toEqual({ ok: true, upstreams });
  });

  it('an empty text is no upstreams', () => {
    expect(parseUpstreamLines('  \n')).toEqual({ ok: true, upstreams: [] });
  });
});
