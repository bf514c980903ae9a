import type { Lang, UserDto } from '@resi/contract';
import { LANGS } from '@resi/contract';
import { CHANNEL_PARAMS, type ChannelKey } from './constants';

/** Session storage keys (docs/console.md#storage-keys). The token lives here only: one tab, one session. */
export const SESSION_KEYS = {
  token: 'token',
  userInfo: 'userInfo',
  lang: 'lang',
  channelKey: 'channel_key',
  channelValue: 'channel_value',
} as const;

/** Local storage keeps non-secret UI state only (docs/console.md#storage-keys), never the token. */
export const LOCAL_KEYS = { ui: 'resi-console.ui' } as const;

export interface Channel {
  key: ChannelKey;
  value: string;
}

export interface UiState {
  menuCollapsed: boolean;
}

const DEFAULT_UI_STATE: UiState = { menuCollapsed: false };

// Storage can throw (private mode, quota, disabled cookies): the console then works without persistence.
function read(store: () => Storage, key: string): string | null {
  try {
    return store().getItem(key);
  } catch {
    return null;
  }
}
function write(store: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) store().removeItem(key);
    else store().setItem(key, value);
  } catch {
    /* ignored: see read() */
  }
}
const session = () => window.sessionStorage;
const local = () => window.localStorage;

export const storage = {
  getToken(): string | null {
    return read(session, SESSION_KEYS.token) || null;
  },
  setToken(token: string): void {
    write(session, SESSION_KEYS.token, token);
  },

  getUserInfo(): UserDto | null {
    const raw = read(session, SESSION_KEYS.userInfo);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as unknown;
      return value && typeof value === 'object' ? (value as UserDto) : null;
    } catch {
      return null;
    }
  },
  setUserInfo(user: UserDto): void {
    write(session, SESSION_KEYS.userInfo, JSON.stringify(user));
  },

  /** Drops the session: token and stored user (docs/console.md#session). */
  clearSession(): void {
    write(session, SESSION_KEYS.token, null);
    write(session, SESSION_KEYS.userInfo, null);
  },

  getLang(): Lang | null {
    const value = read(session, SESSION_KEYS.lang);
    return value && (LANGS as readonly string[]).includes(value) ? (value as Lang) : null;
  },
  setLang(lang: Lang): void {
    write(session, SESSION_KEYS.lang, lang);
  },

  getChannel(): Channel | null {
    const key = read(session, SESSION_KEYS.channelKey);
    const value = read(session, SESSION_KEYS.channelValue);
    if (!key || value === null || !(CHANNEL_PARAMS as readonly string[]).includes(key)) return null;
    return { key: key as ChannelKey, value };
  },
  setChannel(channel: Channel): void {
    write(session, SESSION_KEYS.channelKey, channel.key);
    write(session, SESSION_KEYS.channelValue, channel.value);
  },

  getUiState(): UiState {
    const raw = read(local, LOCAL_KEYS.ui);
    if (!raw) return { ...DEFAULT_UI_STATE };
    try {
      const parsed = JSON.parse(raw) as Partial<UiState>;
      return { menuCollapsed: parsed.menuCollapsed === true };
    } catch {
      return { ...DEFAULT_UI_STATE };
    }
  },
  setUiState(patch: Partial<UiState>): void {
    write(local, LOCAL_KEYS.ui, JSON.stringify({ ...storage.getUiState(), ...patch }));
  },
};
