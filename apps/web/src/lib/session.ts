import { useSyncExternalStore } from 'react';
import type { User } from '@cinema/contract';

const TOKEN_KEY = 'mm_token';
const USER_KEY = 'mm_user';

type Listener = () => void;
const listeners = new Set<Listener>();

function readUser(): User | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
  }
}

let current: { token: string | null; user: User | null } = {
  token: localStorage.getItem(TOKEN_KEY),
  user: readUser(),
};
if (!current.token || !current.user) current = { token: null, user: null };

function emit() {
  for (const l of listeners) l();
}

export const getToken = () => current.token;
export const getUser = () => current.user;

/** Stores the signed-in user and token (login, registration, profile change). */
export function saveSession(token: string, user: User) {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  current = { token, user };
  emit();
}

export function updateSessionUser(user: User) {
  if (!current.token) return;
  saveSession(current.token, user);
}

/** Forgets the session in this browser. */
export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  current = { token: null, user: null };
  emit();
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab signing in or out changes this tab too.
window.addEventListener('storage', (e) => {
  if (e.key === TOKEN_KEY || e.key === USER_KEY) {
    const token = localStorage.getItem(TOKEN_KEY);
    const user = readUser();
    current = token && user ? { token, user } : { token: null, user: null };
    emit();
  }
});

export function useSession() {
  return useSyncExternalStore(subscribe, () => current);
}
