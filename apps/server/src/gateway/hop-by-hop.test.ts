import { describe, expect, it } from 'vitest';
import { stripHopByHop } from './hop-by-hop';

const strip = (raw: string[]) => {
  stripHopByHop(raw);
  return raw;
};

describe('stripHopByHop', () => {
  it('drops Proxy-Connection in any case', () => {
    expect(strip(['Host', 'a', 'Proxy-Connection', 'Keep-Alive', 'Accept', '*/*', 'proxy-connection', 'close'])).toEqual(['Host', 'a', 'Accept', '*/*']);
  });

  it('drops the fields Connection names, whatever their case, and keeps the rest', () => {
    const raw = ['Host', 'a', 'Connection', 'keep-alive, X-Secret , x-trace', 'X-SECRET', '1', 'X-Trace', '2', 'X-Other', '3'];
    expect(strip(raw)).toEqual(['Host', 'a', 'Connection', 'keep-alive, X-Secret , x-trace', 'X-Other', '3']);
  });

  it('leaves a request without hop-by-hop fields as it was', () => {
    const raw = ['Host', 'a', 'Connection', 'close', 'Keep-Alive', 'timeout=5', 'Accept', '*/*'];
    expect(strip([...raw])).toEqual(raw);
  });
});
