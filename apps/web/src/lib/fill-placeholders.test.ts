import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './fill-placeholders';

const endpoint = { host: 'gw.example.net', httpPort: 7777, socksPort: 7778, checkUrl: 'https://ip.example.net/' };

describe('fillPlaceholders', () => {
  it('puts the gateway host, ports and check URL in, wherever and however often they appear', () => {
    expect(fillPlaceholders('curl -x http://U:P@{{host}}:{{httpPort}} {{checkUrl}}\nsocks5h://{{ host }}:{{socksPort}}', endpoint)).toBe(
      'curl -x http://U:P@gw.example.net:7777 https://ip.example.net/\nsocks5h://gw.example.net:7778',
    );
  });

  it('leaves unknown names as written', () => {
    expect(fillPlaceholders('{{hots}} {{constructor}} {{host}}', endpoint)).toBe('{{hots}} {{constructor}} gw.example.net');
  });

  it('shows names to replace while the endpoint is not known', () => {
    expect(fillPlaceholders('{{host}}:{{httpPort}} {{socksPort}} {{checkUrl}}', undefined)).toBe('GATEWAY_HOST:HTTP_PORT SOCKS_PORT CHECK_URL');
  });
});
