import { useEffect, useSyncExternalStore } from 'react';
import type { ChatListSnapshot } from './chatList';
import type { Convo, ConvoSnapshot } from './convo';
import { getChatService, type ChatService, type StatusSnapshot } from './service';

/** The session's chat service (started on first use). Only rendered while signed in. */
export function useChatService(): ChatService {
  const service = getChatService();
  if (!service) throw new Error('the chats area needs a session');
  return service;
}

export const useChatStatus = (service: ChatService): StatusSnapshot =>
  useSyncExternalStore(service.status.subscribe, service.status.getSnapshot);

export const useChatList = (service: ChatService): ChatListSnapshot =>
  useSyncExternalStore(service.list.subscribe, service.list.getSnapshot);

const idle: ConvoSnapshot = {
  status: 'idle',
  messages: [],
  hasOlder: false,
  loadingOlder: false,
  olderFailed: false,
};
const noop = () => () => {};

/**
 * A conversation's snapshot; its first page is asked for once the chat has stayed chosen for
 * `delayMs` (the 300 ms chat-switch debounce of spec 000 §4: clicking through chats costs no calls).
 */
export function useConvo(convo: Convo | null, delayMs = 0): ConvoSnapshot {
  const snap = useSyncExternalStore(convo ? convo.subscribe : noop, convo ? convo.getSnapshot : () => idle);
  useEffect(() => {
    if (!convo || snap.status !== 'idle') return;
    const timer = window.setTimeout(() => void convo.load(), delayMs);
    return () => window.clearTimeout(timer);
  }, [convo, snap.status, delayMs]);
  return snap;
}
