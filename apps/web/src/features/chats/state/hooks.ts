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

/** A conversation's snapshot: what the message list renders, again for every message. */
export const useConvo = (convo: Convo | null): ConvoSnapshot =>
  useSyncExternalStore(convo ? convo.subscribe : noop, convo ? convo.getSnapshot : () => idle);

/**
 * A conversation's status alone, for what around the message list depends on it (the input box): a
 * new message does not render those again. The first page is asked for once the chat has stayed
 * chosen for `delayMs` (the 300 ms chat-switch debounce of spec 000 §4: clicking through chats costs
 * no calls).
 */
export function useConvoStatus(convo: Convo, delayMs = 0): ConvoSnapshot['status'] {
  const status = useSyncExternalStore(convo.subscribe, () => convo.getSnapshot().status);
  useEffect(() => {
    if (status !== 'idle') return;
    const timer = window.setTimeout(() => void convo.load(), delayMs);
    return () => window.clearTimeout(timer);
  }, [convo, status, delayMs]);
  return status;
}
