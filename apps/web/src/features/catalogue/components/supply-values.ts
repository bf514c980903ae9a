import type { UpstreamBody, UpstreamDto } from '@resi/contract';

/** The upstream form: the password field starts empty; left empty it keeps the stored one. */
export interface UpstreamValues {
  protocol: UpstreamDto['protocol'];
  host: string;
  port: number;
  username: string;
  password: string;
  country: string;
  state: string;
  city: string;
  enabled: boolean;
  remark: string;
}

export const newUpstreamValues = (): UpstreamValues => ({
  protocol: 'http',
  host: '',
  port: 8000,
  username: '',
  password: '',
  country: '',
  state: '',
  city: '',
  enabled: true,
  remark: '',
});

export function upstreamValues(dto: UpstreamDto): UpstreamValues {
  return {
    protocol: dto.protocol,
    host: dto.host,
    port: dto.port,
    username: dto.username ?? '',
    password: '',
    country: dto.country ?? '',
    state: dto.state ?? '',
    city: dto.city ?? '',
    enabled: dto.enabled,
    remark: dto.remark ?? '',
  };
}

const orNull = (s: string): string | null => (s.trim() === '' ? null : s.trim());

export function upstreamBody(v: UpstreamValues): UpstreamBody {
  const body: UpstreamBody = {
    protocol: v.protocol,
    host: v.host.trim(),
    port: v.port,
    username: orNull(v.username),
    country: orNull(v.country)?.toUpperCase() ?? null,
    state: orNull(v.state)?.toLowerCase() ?? null,
    city: orNull(v.city)?.toLowerCase() ?? null,
    enabled: v.enabled,
    remark: orNull(v.remark),
  };
  // An untouched password field keeps what is stored (the server answers it masked only).
  if (v.password !== '') body.password = v.password;
  return body;
}
